/** The form addresses are compared in (bounces, limits): the domain is case-insensitive, and in practice the local part too. */
export const addressKey = (address: string) => address.toLowerCase();
