import type { Command } from 'commander';
import { resolveBaseUrl, withBaseUrlOptions, type CredentialFlags } from '../credentials.js';
import { callServer, merchantClient } from '../merchant-api.js';
import { withJsonOption } from '../options.js';
import { printResult, type Io } from '../output.js';
import { renderPairs } from '../table.js';

export function registerTime(program: Command, io: Io): void {
  const cmd = program
    .command('time')
    .description("server time (GET /api/v1/time, no API key needed) and this machine's clock offset");
  withJsonOption(withBaseUrlOptions(cmd))
    .addHelpText(
      'after',
      '\nOffset = server time - local time at the middle of the request, in seconds. Signed requests\nare refused when the offset is outside the tolerance the server reports (default ±60 s).',
    )
    .action(async (opts: CredentialFlags & { json?: boolean }) => {
      const baseUrl = resolveBaseUrl(opts, io.env);
      // GET /api/v1/time sends no credentials; the client only insists on having some to be built.
      const client = merchantClient({ baseUrl, apiKey: 'unused', apiSecret: 'unused' });
      const sent = Date.now();
      const time = await callServer({ baseUrl }, () => client.serverTime());
      const received = Date.now();
      const midpoint = (sent + received) / 2;
      // `iso` carries milliseconds; `unixTime` is whole seconds and would add up to 1 s of error.
      const offsetMs = Date.parse(time.iso) - midpoint;
      const offsetSeconds = Number((offsetMs / 1000).toFixed(3));
      const out = {
        serverTime: time.iso,
        unixTime: time.unixTime,
        localTime: new Date(midpoint).toISOString(),
        offsetSeconds,
        roundTripMs: received - sent,
        toleranceSeconds: time.toleranceSeconds,
      };
      printResult(io, opts.json, out, () => {
        const sign = offsetSeconds < 0 ? '-' : '+';
        const verdict =
          Math.abs(offsetSeconds) < time.toleranceSeconds
            ? `within the ±${time.toleranceSeconds} s the server accepts`
            : `OUTSIDE the ±${time.toleranceSeconds} s the server accepts: sync this machine's clock (NTP); hostpay curl and other signers that do not correct for it will be refused`;
        return renderPairs([
          ['server time', `${out.serverTime} (Unix ${out.unixTime})`],
          ['local time', out.localTime],
          [
            'offset',
            `${sign}${Math.abs(offsetSeconds).toFixed(3)} s (server - this machine; round trip ${out.roundTripMs} ms)`,
          ],
          ['', verdict],
        ]);
      });
    });
}
