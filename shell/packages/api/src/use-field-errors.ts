import { useCallback, useState } from 'react';
import { fieldErrorsOf, type ApiError, type FieldErrors } from './api-errors';

/**
 * A form's messages per field, from its own checks and from the server's answer alike. `showServerErrors` puts a
 * failed call's `errors[]` on the fields they name and returns the server's message, and whether a field took it,
 * for the form's general message (a toast or a banner); editing a field clears its message.
 */
export function useFieldErrors<Field extends string>(fields: readonly Field[]) {
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const showServerErrors = useCallback(
    (error: ApiError): { message: string | null; onField: boolean } => {
      const { fieldErrors, message } = fieldErrorsOf(error, fields);
      setErrors(fieldErrors);
      return { message, onField: Object.keys(fieldErrors).length > 0 };
    },
    [fields],
  );
  const setError = useCallback((field: Field, message: string | null) => {
    setErrors((current) => ({ ...current, [field]: message ?? undefined }));
  }, []);
  const clearError = useCallback((field: Field) => {
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  }, []);
  return { errors, setErrors, setError, clearError, showServerErrors };
}
