/** The registration password rules in one line, shown wherever someone chooses a new password. */
export const NEW_PASSWORD_HINT =
  '8 to 20 characters with a lowercase and an uppercase letter, a digit and one of !@#$%^&*';
