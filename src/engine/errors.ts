/** Misuse of the API throws InvalidArgument naming the call, at construction time rather than mid-run. */
export class InvalidArgument extends Error {
  override name = "InvalidArgument";
}

export function invalid(api: string, message: string): never {
  throw new InvalidArgument(`${api}: ${message}`);
}

/** An assumption failed: the case is discarded, not failed. Thrown by assume(); caught by the engine. */
export class UnsatisfiedAssumption extends Error {
  override name = "UnsatisfiedAssumption";
}
