import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { Category } from '@time-wallet/api';
import {
  deferred,
  mockApi,
  type MockReply,
  renderPage,
  resetTestEnvironment,
} from '@time-wallet/api/testing';
import { DEFAULT_PALETTE } from '../lib/palette';
import { TagsPage } from './tags-page';

const user = userEvent.setup({ delay: null });

/** A categories API that remembers changes, so refetches show them. */
function categoriesServer(
  initial: Category[],
  failures: { add?: boolean; update?: boolean; remove?: boolean } = {},
) {
  let categories = [...initial];
  let nextId = 1;
  let deleted: Category | undefined;
  return mockApi({
    'GET /categories': () => ({ body: categories }),
    'POST /categories': (request) => {
      if (failures.add) return { status: 500, body: { message: 'Internal Server Error' } };
      const created = { _id: `new-${nextId++}`, ...(request.body as { name: string; color: string }) };
      categories = [...categories, created];
      return { status: 201, body: created };
    },
    'PATCH /categories/work': (request) => {
      if (failures.update) return { status: 500, body: { message: 'Internal Server Error' } };
      categories = categories.map((category) =>
        category._id === 'work' ? { ...category, ...(request.body as Partial<Category>) } : category,
      );
      return { body: categories.find((category) => category._id === 'work') };
    },
    'DELETE /categories/work': () => {
      if (failures.remove) return { status: 500, body: { message: 'Internal Server Error' } };
      deleted = categories.find((category) => category._id === 'work');
      categories = categories.filter((category) => category._id !== 'work');
      return { status: 204 };
    },
    'POST /categories/work/restore': () => {
      if (!deleted) return { status: 404, body: { message: 'Nothing to undo' } };
      categories = [...categories, deleted];
      deleted = undefined;
      return { body: categories.at(-1) };
    },
  });
}

const WORK = { _id: 'work', name: 'Work', color: '#2F80ED' };
const STUDY = { _id: 'study', name: 'Study', color: '#d9468f' };
const ERRANDS = { _id: 'errands', name: 'Errands', color: '#123456' };

function renderTags() {
  window.localStorage.setItem('token', 'token-abc');
  return renderPage(<TagsPage />, { path: '/app/edit-tags' });
}

const tag = (name: string) => screen.findByRole('button', { name });
const dialog = (name: string) => screen.findByRole('dialog', { name });
const swatchesIn = (container: HTMLElement) =>
  within(container)
    .getAllByRole('radio')
    .map((radio) => (radio as HTMLInputElement).value);

describe('TagsPage', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => {
    act(() => toast.remove());
    jest.restoreAllMocks();
  });

  it("lists the user's tags, each with an icon in its colour, under the title and hint", async () => {
    categoriesServer([WORK, STUDY]);
    renderTags();

    expect(screen.getByRole('heading', { level: 1, name: 'Your Tags' })).toBeInTheDocument();
    expect(screen.getByText('Double click to edit your tags')).toBeInTheDocument();
    const work = await tag('Work');
    expect(work.querySelector('path')).toHaveStyle({ fill: '#2F80ED' });
    expect((await tag('Study')).querySelector('path')).toHaveStyle({ fill: '#D9468F' });
    expect(work).toHaveAccessibleDescription(
      'Double click to edit your tags Or tap ✎ beside a tag, or press Enter on it.',
    );
  });

  it('shows skeletons while loading and a note when there are no tags', async () => {
    const answer = deferred<MockReply>();
    mockApi({ 'GET /categories': () => answer.promise });
    renderTags();

    expect(screen.getByText('Loading your tags')).toBeInTheDocument();
    await act(async () => answer.resolve({ body: [] }));
    expect(
      await screen.findByText('No tags yet. Add one to give your tasks a name and a colour.'),
    ).toBeInTheDocument();
  });

  it('adds a tag with a name and a colour, says so and lists it', async () => {
    const server = categoriesServer([WORK, STUDY]);
    renderTags();
    await tag('Work');

    await user.click(screen.getByRole('button', { name: 'Add Tag' }));
    const modal = await dialog('Add New Category');
    const name = within(modal).getByPlaceholderText('Category Name');
    expect(name).toHaveFocus();
    // The colours already used come first, then the palette; a new tag starts on the first palette colour unused.
    expect(swatchesIn(modal)).toEqual([
      '#2F80ED',
      '#D9468F',
      ...DEFAULT_PALETTE.filter((color) => !['#2F80ED', '#D9468F'].includes(color)),
    ]);
    expect(within(modal).getByRole('radio', { name: 'Colour #2D967C' })).toBeChecked();

    await user.type(name, '  Deep Work ');
    await user.click(within(modal).getByRole('radio', { name: 'Colour #D97706' }));
    await user.click(within(modal).getByRole('button', { name: 'Add Category' }));

    expect(await screen.findByText('Category added successfully!')).toBeInTheDocument();
    expect(server.requestsTo('POST', '/categories')[0].body).toEqual({ name: 'Deep Work', color: '#D97706' });
    expect((await tag('Deep Work')).querySelector('path')).toHaveStyle({ fill: '#D97706' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.requestsTo('GET', '/categories')).toHaveLength(2);
  });

  it('explains an empty or over-long name and sends nothing', async () => {
    const server = categoriesServer([]);
    renderTags();
    await user.click(await screen.findByRole('button', { name: 'Add Tag' }));
    const modal = await dialog('Add New Category');

    await user.click(within(modal).getByRole('button', { name: 'Add Category' }));
    const name = within(modal).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAccessibleDescription(expect.stringContaining('Please enter a name for the tag.'));
    expect(name).toHaveAttribute('aria-invalid', 'true');

    await user.type(name, 'x'.repeat(41));
    expect(within(modal).getByText('The name must not exceed 40 characters.')).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'Add Category' }));
    expect(server.requestsTo('POST', '/categories')).toHaveLength(0);

    await user.type(name, '{Backspace}');
    expect(within(modal).queryByText('The name must not exceed 40 characters.')).not.toBeInTheDocument();
  });

  it("says 'Failed to add category.' when the server refuses, keeping the modal open", async () => {
    categoriesServer([], { add: true });
    renderTags();
    await user.click(await screen.findByRole('button', { name: 'Add Tag' }));
    const modal = await dialog('Add New Category');
    await user.type(within(modal).getByRole('textbox', { name: 'Name' }), 'Chores');
    await user.click(within(modal).getByRole('button', { name: 'Add Category' }));

    expect(await screen.findByText('Failed to add category.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add New Category' })).toBeInTheDocument();
  });

  it("shows the server's reason for a name clash on the Name field", async () => {
    const message = 'A tag named "Work" already exists';
    mockApi({
      'GET /categories': { body: [WORK] },
      'POST /categories': { status: 409, body: { message, errors: [{ field: 'name', message }] } },
    });
    renderTags();
    await user.click(await screen.findByRole('button', { name: 'Add Tag' }));
    const modal = await dialog('Add New Category');
    const name = within(modal).getByRole('textbox', { name: 'Name' });
    await user.type(name, 'work');
    await user.click(within(modal).getByRole('button', { name: 'Add Category' }));

    expect(await screen.findByText('Failed to add category.')).toBeInTheDocument();
    await waitFor(() => expect(name).toHaveAccessibleDescription(`Up to 40 characters ${message}`));
    await user.type(name, 's');
    expect(name).toHaveAccessibleDescription('Up to 40 characters');
  });

  it('opens a tag for editing with one tap on its ✎ button', async () => {
    categoriesServer([WORK, STUDY]);
    renderTags();
    await user.click(await screen.findByRole('button', { name: 'Edit Study' }));
    const modal = await dialog('Edit Category');
    expect(within(modal).getByRole('textbox', { name: 'Name' })).toHaveValue('Study');
  });

  it('renames and recolours a tag after a double click', async () => {
    const server = categoriesServer([WORK, STUDY, ERRANDS]);
    renderTags();

    await user.click(await tag('Work'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.dblClick(await tag('Work'));
    const modal = await dialog('Edit Category');
    const name = within(modal).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Work');
    expect(within(modal).getByRole('radio', { name: 'Colour #2F80ED' })).toBeChecked();
    // A colour outside the palette that a tag uses is offered too.
    expect(swatchesIn(modal).slice(0, 3)).toEqual(['#2F80ED', '#D9468F', '#123456']);

    await user.clear(name);
    await user.type(name, 'Focus');
    await user.click(within(modal).getByRole('radio', { name: 'Colour #D9468F' }));
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    expect(await tag('Focus')).toBeInTheDocument();
    expect(server.requestsTo('PATCH', '/categories/work')[0].body).toEqual({
      name: 'Focus',
      color: '#D9468F',
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Work' })).not.toBeInTheDocument();
  });

  it('opens a tag from the keyboard with Enter and closes with Cancel, changing nothing', async () => {
    const server = categoriesServer([WORK]);
    renderTags();
    (await tag('Work')).focus();

    await user.keyboard('{Enter}');
    const modal = await dialog('Edit Category');
    await user.click(within(modal).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.requestsTo('PATCH', '/categories/work')).toHaveLength(0);
    expect(await tag('Work')).toHaveFocus();
  });

  it("says 'Failed to update category.' when saving fails", async () => {
    categoriesServer([WORK], { update: true });
    renderTags();
    await user.dblClick(await tag('Work'));
    const modal = await dialog('Edit Category');
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Failed to update category.')).toBeInTheDocument();
  });

  it('deletes a tag at once, and Undo in the toast brings it back', async () => {
    const server = categoriesServer([WORK, STUDY]);
    renderTags();
    await user.dblClick(await tag('Work'));
    await user.click(within(await dialog('Edit Category')).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByRole('button', { name: 'Work' })).not.toBeInTheDocument());
    expect(server.requestsTo('DELETE', '/categories/work')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('Tag "Work" deleted')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Tag restored')).toBeInTheDocument();
    expect(server.requestsTo('POST', '/categories/work/restore')).toHaveLength(1);
    expect(await tag('Work')).toBeInTheDocument();
    expect(await tag('Study')).toBeInTheDocument();
  });

  it("says 'Failed to delete category.' when deleting fails", async () => {
    categoriesServer([WORK], { remove: true });
    renderTags();
    await user.dblClick(await tag('Work'));
    await user.click(within(await dialog('Edit Category')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Failed to delete category.')).toBeInTheDocument();
    expect(await tag('Work')).toBeInTheDocument();
  });
});
