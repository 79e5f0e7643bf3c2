/**
 * Adds a task through Today's New Task form, as a person does, and waits for the toast and its row. `category` is
 * the label of a tag to pick, if any.
 */
export async function addTaskThroughForm(page, { title, start, end, category }) {
  const form = page.getByRole('form', { name: 'New Task' });
  await form.getByRole('textbox', { name: 'Title' }).fill(title);
  if (category) await form.getByRole('combobox', { name: 'Category' }).selectOption({ label: category });
  await form.getByLabel('Start Time').fill(start);
  await form.getByLabel('End Time').fill(end);
  await form.getByRole('button', { name: 'Add Task' }).click();
  await page.getByText('Task added successfully!').last().waitFor();
  await page.getByRole('checkbox', { name: `${title} done` }).waitFor();
}
