import type { Command } from 'commander';
import { resolveCredentials, withCredentialOptions, type CredentialFlags } from '../credentials.js';
import { notice, printResult, type Io } from '../output.js';
import { integerIn, withJsonOption } from '../options.js';
import { requestToken } from '../token-request.js';

export function registerToken(program: Command, io: Io): void {
  const cmd = program
    .command('token')
    .description('get a bearer token for an API key (POST /api/v1/auth/token, signed)')
    .option(
      '--expires-in <seconds>',
      'token lifetime, 60 to 86400 (default: the server setting, 3600)',
      integerIn(60, 86_400),
    );
  withJsonOption(withCredentialOptions(cmd, {}))
    .addHelpText(
      'after',
      '\nText output is the token alone, so this works:\n  export HOSTPAY_TOKEN=$(npx hostpay token)',
    )
    .action(async (opts: CredentialFlags & { expiresIn?: number; json?: boolean }) => {
      const token = await requestToken(resolveCredentials(opts, io.env), opts.expiresIn);
      printResult(io, opts.json, token, () => token.accessToken);
      if (!opts.json)
        notice(
          io,
          `token expires at ${token.expiresAt} (in ${token.expiresIn} s); pass it with --token or HOSTPAY_TOKEN`,
        );
    });
}
