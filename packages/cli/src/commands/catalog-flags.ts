/** `--active` / `--inactive` (which conflict) as the API's optional `active`. */
export const activeFlag = (opts: { active?: boolean; inactive?: boolean }): boolean | undefined =>
  opts.active === true ? true : opts.inactive === true ? false : undefined;
