/**
 * The closed set of errors services raise (CONVENTIONS rule 4), mapped to HTTP statuses in one
 * place; tRPC maps the same codes.
 */
export const ERROR_CODES = ["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "LEASE_CONFLICT", "PAYLOAD_TOO_LARGE", "TOO_MANY_REQUESTS", "UNAVAILABLE", "INTERNAL"] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  LEASE_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  /** The server cannot store now (its disk is full): the same request later will do. */
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }
}
