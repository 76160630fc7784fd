import { spawn } from 'node:child_process';

/**
 * Opens a URL in the user's browser, if this machine has a way: `$BROWSER` (the common Unix
 * convention; a test sets it to a harmless command), else the platform's opener (`open` on macOS,
 * `start` on Windows, `xdg-open` elsewhere). Resolves false when nothing could be started (no
 * opener installed, a server without a desktop): the caller has printed the URL anyway.
 */
export function openUrl(url: string, env: Record<string, string | undefined>): Promise<boolean> {
  const browser = env.BROWSER === undefined || env.BROWSER === '' ? undefined : env.BROWSER;
  const [command, args] =
    browser !== undefined
      ? [browser, [url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
          : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      // Detached and ignored: the command finishes at once and leaves the browser running.
      const child = spawn(command, args, { detached: true, stdio: 'ignore', env: { ...process.env, ...env } });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
