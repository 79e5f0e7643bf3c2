export interface FieldError {
  field: string;
  message: string;
}

/** An error whose message is safe to show the client; anything else becomes a generic 500. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    statusCode: number,
    message: string,
    options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const unauthorized = () => new HttpError(401, 'Unauthorized');
export const validationFailed = (errors: FieldError[]) => new HttpError(400, 'Validation failed', { errors });
