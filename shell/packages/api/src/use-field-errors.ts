import { useCallback, useState } from 'react';
import { fieldErrorsOf, type ApiError, type FieldErrors } from './api-errors';

/**
 * A form's messages per field, from its own checks and from the server's answer alike. `showServerErrors` puts a
 * failed call's `errors[]` on the fields they name and returns the server's message, for the form's general message
 * (a toast or a banner); editing a field clears its message.
 */
export function useFieldErrors<Field extends string>(fields: readonly Field[]) {
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const showServerErrors = useCallback(
    (error: ApiError): string | null => {
      const { fieldErrors, message } = fieldErrorsOf(error, fields);
      setErrors(fieldErrors);
      return message;
    },
    [fields],
  );
  const clearError = useCallback((field: Field) => {
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  }, []);
  return { errors, setErrors, clearError, showServerErrors };
}
