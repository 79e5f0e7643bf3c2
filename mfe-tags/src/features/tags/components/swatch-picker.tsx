import { useId } from 'react';
import { Fieldset } from '@time-wallet/shared-ui';
import styles from './swatch-picker.module.css';

interface SwatchPickerProps {
  swatches: string[];
  value: string;
  onChange: (color: string) => void;
  disabled?: boolean;
}

/** The colours a tag can take, as a radio group: arrow keys move between them, as in any radio group. */
export function SwatchPicker({ swatches, value, onChange, disabled }: SwatchPickerProps) {
  const name = useId();
  return (
    <Fieldset legend="Colour" disabled={disabled} bodyClassName={styles.swatches}>
      {swatches.map((color) => (
        <label key={color} className={styles.swatch} style={{ background: color }} title={color}>
          <input
            type="radio"
            name={name}
            value={color}
            checked={color === value}
            onChange={() => onChange(color)}
            aria-label={`Colour ${color}`}
            className={styles.input}
          />
        </label>
      ))}
    </Fieldset>
  );
}
