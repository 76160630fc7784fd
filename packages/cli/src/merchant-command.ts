import type { Command } from 'commander';
import { CLIENT_TOKEN_HELP, resolveCredentials, withCredentialOptions, type CredentialFlags } from './credentials.js';
import { callServer, merchantClient } from './merchant-api.js';
import { withJsonOption } from './options.js';
import type { Io } from './output.js';

/** The flags of a merchant command that goes through the client: credentials, --merchant, --json. */
export interface MerchantFlags extends CredentialFlags {
  merchant?: string;
  json?: boolean;
}

/** A merchant command's options: credentials, --merchant, --json. */
export function merchantCommand(cmd: Command): Command {
  cmd.option(
    '--merchant <id>',
    "act for this sub-merchant (platform keys an operator granted it; default: the key's merchant)",
  );
  return withJsonOption(withCredentialOptions(cmd, { tokenHelp: CLIENT_TOKEN_HELP }));
}

/** Runs a call with the merchant's client (credentials from flags, environment or profile). */
export async function withClient<T>(
  io: Io,
  opts: MerchantFlags,
  call: (client: ReturnType<typeof merchantClient>) => Promise<T>,
): Promise<T> {
  const creds = resolveCredentials(opts, io.env);
  return callServer(creds, () => call(merchantClient(creds)));
}
