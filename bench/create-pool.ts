import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A wrk script handing out `count` distinct checkout creates, one per request: `<orderId>
 * <signature>` lines in a pool file, built into whole requests when wrk starts (so wrk's Lua does
 * no signing). Past the pool every request carries a signature that cannot pass (a 401 the bench
 * reports), never a reused one. `sign` answers the signature of a body, or any placeholder for a
 * server that checks none. Used by bench/checkout.ts and bench/ceiling.ts.
 */
export function writeCreatePool(opts: {
  dir: string;
  /** Names this pool's files (pool-<n>.txt, pool-<n>.lua). */
  n: number;
  count: number;
  head: string;
  tail: string;
  nextOrderId: () => string;
  sign: (body: string) => string;
}): string {
  const lines: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const orderId = opts.nextOrderId();
    lines.push(`${orderId} ${opts.sign(opts.head + orderId + opts.tail)}`);
  }
  const pool = join(opts.dir, `pool-${opts.n}.txt`);
  writeFileSync(pool, `${lines.join('\n')}\n`);
  const script = join(opts.dir, `pool-${opts.n}.lua`);
  // JSON string literals are Lua string literals too (ASCII, \" and \\ escapes).
  writeFileSync(
    script,
    `local head, tail = ${JSON.stringify(opts.head)}, ${JSON.stringify(opts.tail)}
local reqs, i, spent = {}, 0, nil
function init(args)
  local h = {}
  for k, v in pairs(wrk.headers) do h[k] = v end
  for line in io.lines(${JSON.stringify(pool)}) do
    local id, sig = line:match("^(%S+) (%S+)$")
    h["signature"] = sig
    reqs[#reqs + 1] = wrk.format("POST", nil, h, head .. id .. tail)
  end
  -- past the pool: a signature that cannot pass (a 401 the bench reports), never a reused one
  h["signature"] = "pool-exhausted"
  spent = wrk.format("POST", nil, h, head .. "pool-exhausted" .. tail)
end
function request()
  i = i + 1
  return reqs[i] or spent
end
`,
  );
  return script;
}
