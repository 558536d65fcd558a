/** Identifier strategies: strings of the formats applications validate, valid by construction. */
export { uuids } from "./uuids.ts";
export type { UuidsOptions } from "./uuids.ts";
export { ipAddresses } from "./ipAddresses.ts";
export type { IpAddressesOptions } from "./ipAddresses.ts";
export { domains } from "./domains.ts";
export { emails } from "./emails.ts";
export { urls } from "./urls.ts";
