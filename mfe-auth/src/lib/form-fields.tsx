import type { ReactNode } from 'react';
import { Field } from '@time-wallet/shared-ui';

/** One text field of an account form, as data: the state key it edits and the input's own attributes. */
export interface TextFieldSpec<Key extends string> {
  field: Key;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete: string;
  hint?: ReactNode;
}

/** The form's text fields, in order, each bound to its value, its error and the form's edit function. */
export function TextFields<Key extends string>({
  specs,
  values,
  errors = {},
  edit,
}: {
  specs: readonly TextFieldSpec<Key>[];
  values: Record<Key, string>;
  errors?: Partial<Record<Key, string | null>>;
  edit: (field: Key) => (value: string) => void;
}) {
  return specs.map(({ field, ...input }) => (
    <Field
      key={field}
      name={field}
      {...input}
      value={values[field]}
      error={errors[field]}
      onChange={(event) => edit(field)(event.target.value)}
    />
  ));
}
