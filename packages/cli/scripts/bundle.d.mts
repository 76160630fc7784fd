/** Bundles `entry` into `dist/<name>.js` and `dist/chunks/`, swapped in whole; returns this build's chunk files. */
export function bundle(options: {
  entry: string;
  dist: string;
  name?: string;
  external?: string[];
  banner?: string;
}): Promise<string[]>;
