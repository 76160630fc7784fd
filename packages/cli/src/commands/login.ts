import type { Command } from 'commander';
import { DEFAULT_BASE_URL, resolveLogin, type CredentialFlags } from '../credentials.js';
import { callServer, merchantClient } from '../merchant-api.js';
import { withJsonOption } from '../options.js';
import { printResult, type Io } from '../output.js';
import { profileName, profilesFile, removeProfile, saveProfile } from '../profiles.js';

export function registerLogin(program: Command, io: Io): void {
  const login = program
    .command('login')
    .description('check an API key against the server, then save it as a profile the merchant commands fall back on')
    .option('--api-key <key>', 'API key to check and save (default: $HOSTPAY_API_KEY)')
    .option('--api-secret <secret>', 'its secret (default: $HOSTPAY_API_SECRET)')
    .option(
      '--base-url <url>',
      `server address (default: $HOSTPAY_BASE_URL, else the one this profile already has, else ${DEFAULT_BASE_URL})`,
    )
    .option('--profile <name>', 'save as this profile (default: $HOSTPAY_PROFILE, else "default")');
  withJsonOption(login)
    .addHelpText(
      'after',
      [
        '',
        'The key is verified first (a short-lived token is issued); nothing is saved unless that works.',
        'Profiles live in $HOSTPAY_CONFIG_DIR/profiles.json, else ~/.config/hostpay/profiles.json',
        '($XDG_CONFIG_HOME/hostpay when that is set); directory 0700, file 0600: readable only by you.',
        'The secret is never printed.',
        'To keep the secret out of your shell history, set HOSTPAY_API_SECRET instead of --api-secret.',
      ].join('\n'),
    )
    .action(async (opts: CredentialFlags & { json?: boolean }) => {
      const { name, file, creds } = resolveLogin(opts, io.env);
      const token = await callServer(creds, () => merchantClient(creds).issueToken({ expiresIn: 60 }));
      saveProfile(file, name, {
        baseUrl: creds.baseUrl,
        apiKey: creds.apiKey,
        apiSecret: creds.apiSecret,
        savedAt: new Date().toISOString(),
      });
      const out = { profile: name, file, baseUrl: creds.baseUrl, apiKey: creds.apiKey, scopes: token.scope };
      printResult(io, opts.json, out, () =>
        [
          `logged in: API key ${creds.apiKey} works on ${creds.baseUrl} (scopes: ${token.scope.join(', ') || 'none'})`,
          `saved as profile "${name}" in ${file} (mode 0600, readable only by you)`,
          name === 'default' ? 'try: hostpay wallets' : `try: hostpay wallets --profile ${name}`,
        ].join('\n'),
      );
    });

  withJsonOption(
    program
      .command('logout')
      .description('remove a saved profile (the API key itself stays valid; an operator revokes keys)'),
  )
    .option('--profile <name>', 'profile to remove (default: $HOSTPAY_PROFILE, else "default")')
    .action((opts: { profile?: string; json?: boolean }) => {
      const { name } = profileName(opts.profile, io.env);
      const file = profilesFile(io.env);
      const removed = removeProfile(file, name);
      printResult(io, opts.json, { profile: name, file, removed }, () =>
        removed ? `removed profile "${name}" from ${file}` : `no profile "${name}" in ${file}: nothing to remove`,
      );
    });
}
