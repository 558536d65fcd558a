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

/** A test case finished, but took longer than the `deadline` setting allows. */
export class DeadlineExceeded extends Error {
  override name = "DeadlineExceeded";
}

/** An async body's promise did not settle within the `timeout` setting: the case failed without an outcome. */
export class TimeoutError extends Error {
  override name = "TimeoutError";
}
