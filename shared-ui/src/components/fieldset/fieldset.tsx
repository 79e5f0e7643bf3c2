import type { FieldsetHTMLAttributes, ReactNode } from 'react';
import styles from './fieldset.module.css';

export interface FieldsetProps extends FieldsetHTMLAttributes<HTMLFieldSetElement> {
  legend: ReactNode;
  /** Lays out the controls (a grid, a row of swatches); the legend stays above them. */
  bodyClassName?: string;
}

/** A group of controls named by its legend, without the browser's frame: radio groups, sets of related inputs. */
export function Fieldset({ legend, bodyClassName, className, children, ...rest }: FieldsetProps) {
  return (
    <fieldset className={[styles.fieldset, className].filter(Boolean).join(' ')} {...rest}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={bodyClassName}>{children}</div>
    </fieldset>
  );
}
