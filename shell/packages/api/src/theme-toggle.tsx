import { useAppDispatch, useAppSelector } from './store';
import {
  selectThemePreference,
  THEME_PREFERENCES,
  themePreferenceChanged,
  type ThemePreference,
} from './theme-slice';
import styles from './theme-toggle.module.css';

const LABELS: Record<ThemePreference, string> = { light: 'Light', dark: 'Dark', system: 'System' };

/**
 * A three-way switch (light, dark, follow the system) as a radio group, so it works from the keyboard. The shell's
 * side nav and any page without it (the calendar, SPEC) show the same one; the shell applies the preference.
 */
export function ThemeToggle() {
  const preference = useAppSelector(selectThemePreference);
  const dispatch = useAppDispatch();
  return (
    <fieldset className={styles.toggle}>
      <legend className={styles.legend}>Theme</legend>
      {THEME_PREFERENCES.map((option) => (
        <label
          key={option}
          className={styles.option}
          data-option={option}
          data-checked={option === preference}
        >
          <input
            type="radio"
            name="theme"
            value={option}
            checked={option === preference}
            onChange={() => dispatch(themePreferenceChanged(option))}
          />
          {LABELS[option]}
        </label>
      ))}
    </fieldset>
  );
}
