export interface FieldError<Field extends string = string> {
  field: Field;
  message: string;
}

/** The server's word for a title that is empty once trimmed (tasks and events); forms say it before sending. */
export const TITLE_REQUIRED_MESSAGE = 'Title is required';
