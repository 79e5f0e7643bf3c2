import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api } from '@time-wallet/api';
import { usePageTestEnvironment } from '@time-wallet/api/testing';
import { renderToday } from '../testing/today';

const user = userEvent.setup({ delay: null });
const INSIGHTS = 'GET /insights/estimates?weeks=8';
const CATEGORIES = [
  { _id: 'c1', name: 'Health', color: '#E0533D' },
  { _id: 'c2', name: 'Work', color: '#2F80ED' },
];
const insights = (tasks: number, ratio = 1.4) => ({
  body: {
    categories: [
      { categoryId: 'c2', tasks, estimateMinutes: 600, trackedMinutes: Math.round(600 * ratio), ratio },
      { categoryId: 'c1', tasks: 2, estimateMinutes: 60, trackedMinutes: 120, ratio: 2 },
    ],
  },
});

async function newTaskForm() {
  const form = screen.getByRole('form', { name: 'New Task' });
  await within(form).findByRole('option', { name: 'Work' });
  return form;
}
const typeEstimate = (form: HTMLElement, minutes: string) =>
  user.type(within(form).getByRole('spinbutton', { name: 'Estimate (minutes)' }), minutes);
/** Whether the insights have arrived in the store. */
const insightsRead = (store: ReturnType<typeof renderToday>['store']) =>
  Object.values(store.getState()[api.reducerPath].queries).some(
    (query) => query?.endpointName === 'getEstimateInsights' && query.status === 'fulfilled',
  );
const OFFER = 'Your Work tasks took 1.4× their estimates lately: plan 84 min?';

describe('the estimate offer of the task form', () => {
  usePageTestEnvironment({ token: 'token-1' });

  it("offers what the category's tasks took lately, taken in one click and never by itself", async () => {
    const { server } = renderToday({ 'GET /categories': { body: CATEGORIES }, [INSIGHTS]: insights(5) });
    const form = await newTaskForm();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Category' }), 'Work');
    // Read only once an estimate is typed for a task with a category.
    expect(server.requestsTo('GET', '/insights/estimates')).toHaveLength(0);

    await typeEstimate(form, '60');

    expect(await within(form).findByText(OFFER)).toBeInTheDocument();
    const estimate = within(form).getByRole('spinbutton', { name: 'Estimate (minutes)' });
    expect(estimate).toHaveValue(60);
    await user.click(within(form).getByRole('button', { name: 'Plan 84 min' }));
    expect(estimate).toHaveValue(84);
    // Taken: not offered again on the estimate it gave.
    expect(within(form).queryByText(/their estimates lately/)).not.toBeInTheDocument();
    // Typed again, it is offered again.
    await user.clear(estimate);
    await typeEstimate(form, '30');
    expect(
      await within(form).findByText(/took 1.4× their estimates lately: plan 42 min\?/),
    ).toBeInTheDocument();
  });

  it('says nothing for a category with fewer than 5 such tasks', async () => {
    const { store } = renderToday({ 'GET /categories': { body: CATEGORIES }, [INSIGHTS]: insights(4) });
    const form = await newTaskForm();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Category' }), 'Work');
    await typeEstimate(form, '60');
    await waitFor(() => expect(insightsRead(store)).toBe(true));
    expect(within(form).queryByText(/their estimates lately/)).not.toBeInTheDocument();
    // The other category has a ratio, but only 2 tasks: nothing either.
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Category' }), 'Health');
    expect(within(form).queryByText(/their estimates lately/)).not.toBeInTheDocument();
  });

  it('asks nothing for a task without a category', async () => {
    const { server } = renderToday({ 'GET /categories': { body: CATEGORIES }, [INSIGHTS]: insights(9) });
    const form = await newTaskForm();
    await typeEstimate(form, '60');
    expect(within(form).getByRole('spinbutton', { name: 'Estimate (minutes)' })).toHaveValue(60);
    expect(server.requestsTo('GET', '/insights/estimates')).toHaveLength(0);
  });
});
