import { useId } from 'react';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import styles from './field.module.css';

/** What a control needs to be labelled and described by its Field. */
export interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

interface FieldOwnProps {
  label: ReactNode;
  /** Shown under the control, linked by aria-describedby, and marks the control aria-invalid. */
  error?: string | null;
  hint?: ReactNode;
  id?: string;
  /** Class of the wrapper around label, control and messages. */
  className?: string;
}

type NativeProps<Tag extends 'input' | 'select' | 'textarea'> = Omit<
  ComponentPropsWithRef<Tag>,
  'id' | 'className'
>;

export type FieldProps = FieldOwnProps &
  (
    | ({ as?: 'input' } & NativeProps<'input'>)
    | ({ as: 'select' } & NativeProps<'select'>)
    | ({ as: 'textarea' } & NativeProps<'textarea'>)
    | { as: 'custom'; children: (control: FieldControlProps) => ReactNode }
  );

/** A labelled form control with an optional hint and error message, wired for assistive technology. */
export function Field(props: FieldProps) {
  const generatedId = useId();
  const id = props.id ?? generatedId;
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const ownDescription = props.as === 'custom' ? undefined : props['aria-describedby'];
  const control: FieldControlProps = {
    id,
    'aria-describedby': [ownDescription, hintId, errorId].filter(Boolean).join(' ') || undefined,
    'aria-invalid': props.error ? true : undefined,
  };

  return (
    <div className={[styles.field, props.className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className={styles.label}>
        {props.label}
      </label>
      {props.hint && (
        <p id={hintId} className={styles.hint}>
          {props.hint}
        </p>
      )}
      {renderControl(props, control)}
      {props.error && (
        <p id={errorId} className={styles.error}>
          {props.error}
        </p>
      )}
    </div>
  );
}

function renderControl(props: FieldProps, control: FieldControlProps) {
  if (props.as === 'custom') return props.children(control);
  const {
    as,
    label: _label,
    error: _error,
    hint: _hint,
    id: _id,
    className: _className,
    ...nativeProps
  } = props;
  switch (as) {
    case 'select':
      return <select {...(nativeProps as NativeProps<'select'>)} {...control} className={styles.control} />;
    case 'textarea':
      return (
        <textarea {...(nativeProps as NativeProps<'textarea'>)} {...control} className={styles.control} />
      );
    default:
      return <input {...(nativeProps as NativeProps<'input'>)} {...control} className={styles.control} />;
  }
}
