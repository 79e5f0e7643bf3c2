import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { seriousViolations } from '../support/accessibility.mjs';
import { overlaps } from '../support/geometry.mjs';

describe('tags', () => {
  const suite = browserSuite({
    account: 'tagger',
    seed: ({ api, account }) =>
      api.call('POST', '/categories', { token: account.token, body: { name: 'Errands', color: '#123456' } }),
  });

  const page = () => suite.page;
  const tag = (name) => page().getByRole('list', { name: 'Tags' }).getByRole('button', { name, exact: true });
  const dialog = (name) => page().getByRole('dialog', { name });
  // Today in the browser's zone, which is the machine's.
  const plannedForToday = (title, categoryId) =>
    fetch(`${suite.stack.apiBaseUrl}/tasks`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${suite.account.token}`,
        'Content-Type': 'application/json',
        'X-Time-Zone': Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
      body: JSON.stringify({ title, categoryId, startHHMM: '10:00', endHHMM: '11:00' }),
    }).then((response) => assert.equal(response.status, 201));
  const savedCategories = () => suite.api.call('GET', '/categories', { token: suite.account.token });
  const iconFill = (name) =>
    tag(name)
      .locator('path')
      .evaluate((path) => getComputedStyle(path).fill);

  async function assertAccessible(where) {
    for (const colorScheme of ['light', 'dark']) {
      await page().emulateMedia({ colorScheme });
      // The shell's colours ease between themes; axe must see where they end.
      await page().waitForTimeout(400);
      const violations = await seriousViolations(page());
      assert.deepEqual(violations, [], `${where} (${colorScheme}): ${JSON.stringify(violations, null, 2)}`);
    }
    await page().emulateMedia({ colorScheme: 'light' });
  }

  it('adds, renames, recolours and deletes a tag', async () => {
    await page().goto(`${suite.stack.shellUrl}/app/edit-tags`);
    await page().getByRole('heading', { level: 1, name: 'Your Tags' }).waitFor();
    await page().getByText('Double click to edit your tags').waitFor();
    await tag('Errands').waitFor();
    assert.equal(await iconFill('Errands'), 'rgb(18, 52, 86)');
    await assertAccessible('tag list');

    await page().getByRole('button', { name: 'Add Tag' }).click();
    const add = dialog('Add New Category');
    await add.waitFor();
    const swatches = await add.getByRole('radio').evaluateAll((radios) => radios.map((radio) => radio.value));
    assert.equal(swatches[0], '#123456', 'the colour a tag already uses comes first');
    assert.equal(swatches[1], '#2D967C', 'then the palette, starting with the brand green');
    assert.equal(swatches.length, 11);
    await assertAccessible('add modal');

    await add.getByRole('button', { name: 'Add Category' }).click();
    await add.getByText('Please enter a name for the tag.').waitFor();
    await add.getByPlaceholder('Category Name').fill('x'.repeat(41));
    await add.getByText('The name must not exceed 40 characters.').waitFor();

    await add.getByPlaceholder('Category Name').fill('Deep Work');
    await add.getByRole('radio', { name: 'Colour #D97706' }).check();
    await add.getByRole('button', { name: 'Add Category' }).click();
    const addedToast = page().getByRole('status').filter({ hasText: 'Category added successfully!' });
    await addedToast.waitFor();
    // Toasts rise from the bottom, clear of the page's Add Tag (measured where their entrance ends).
    await page().waitForTimeout(400);
    const addTag = page().getByRole('button', { name: 'Add Tag' });
    assert.ok(
      !overlaps(await addedToast.boundingBox(), await addTag.boundingBox()),
      'Add Tag stays uncovered',
    );
    await tag('Deep Work').waitFor();
    assert.equal(await dialog('Add New Category').count(), 0);
    assert.equal(await iconFill('Deep Work'), 'rgb(217, 119, 6)');
    const added = (await savedCategories()).find((category) => category.name === 'Deep Work');
    assert.equal(added?.color, '#D97706');

    await tag('Deep Work').dblclick();
    const edit = dialog('Edit Category');
    await edit.waitFor();
    assert.equal(await edit.getByRole('textbox', { name: 'Name' }).inputValue(), 'Deep Work');
    assert.equal(await edit.getByRole('radio', { name: 'Colour #D97706' }).isChecked(), true);
    await assertAccessible('edit modal');
    await edit.getByRole('textbox', { name: 'Name' }).fill('Focus');
    await edit.getByRole('radio', { name: 'Colour #7C6AE6' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await tag('Focus').waitFor();
    assert.equal(await tag('Deep Work').count(), 0);
    assert.equal(await iconFill('Focus'), 'rgb(124, 106, 230)');
    assert.deepEqual(
      (await savedCategories()).find((category) => category._id === added._id),
      { _id: added._id, name: 'Focus', color: '#7C6AE6' },
    );

    // From the keyboard: Enter on a focused tag opens it too.
    await tag('Focus').focus();
    await page().keyboard.press('Enter');
    await dialog('Edit Category').getByRole('button', { name: 'Delete', exact: true }).click();
    await tag('Focus').waitFor({ state: 'detached' });
    assert.deepEqual(
      (await savedCategories()).map((category) => category.name),
      ['Errands'],
    );
    // Deleted at once; Undo in the toast brings it back with its id, name and colour.
    await page().getByRole('button', { name: 'Undo' }).click();
    await tag('Focus').waitFor();
    assert.deepEqual(
      (await savedCategories()).find((category) => category._id === added._id),
      { _id: added._id, name: 'Focus', color: '#7C6AE6' },
    );

    // Names are unique without regard to case; the server's reason shows on the field. On a phone, the ✎ opens it.
    await page().getByRole('button', { name: 'Edit Focus' }).click();
    await dialog('Edit Category').getByRole('textbox', { name: 'Name' }).fill('errands');
    await dialog('Edit Category').getByRole('button', { name: 'Save' }).click();
    await dialog('Edit Category').getByText('A tag named "Errands" already exists').waitFor();
    await dialog('Edit Category').getByRole('button', { name: 'Delete', exact: true }).click();
    await tag('Focus').waitFor({ state: 'detached' });
    assert.deepEqual(suite.browser.pageErrors.map(String), []);
  });

  it("shows a tag change in Today's category select without a reload", async () => {
    await page().goto(`${suite.stack.shellUrl}/app/edit-tags`);
    await tag('Errands').waitFor();
    await page().evaluate(() => {
      window.sameDocument = true;
    });
    const categorySelectOptions = async () => {
      await page().getByRole('navigation', { name: 'Tabs' }).getByRole('link', { name: 'Today' }).click();
      await page().getByRole('heading', { level: 1, name: 'Today Activities' }).waitFor();
      const select = page()
        .locator('select')
        .filter({ has: page().locator('option') });
      const labelled = page().getByLabel('Category', { exact: true }).and(select);
      try {
        await labelled.first().waitFor({ timeout: 5_000 });
      } catch {
        return null;
      }
      const names = await labelled.evaluateAll((selects) =>
        selects.flatMap((element) => [...element.options].map((option) => option.textContent.trim())),
      );
      return new Set(names);
    };
    const backToTags = async () => {
      await page().getByRole('navigation', { name: 'Tabs' }).getByRole('link', { name: 'Edit Tags' }).click();
      await page().getByRole('heading', { level: 1, name: 'Your Tags' }).waitFor();
    };

    const before = await categorySelectOptions();
    assert.ok(before, "Today offers the categories in a select labelled 'Category'");
    assert.ok(before.has('Errands'));
    await backToTags();

    await page().getByRole('button', { name: 'Add Tag' }).click();
    await dialog('Add New Category').getByPlaceholder('Category Name').fill('Reading');
    await dialog('Add New Category').getByRole('button', { name: 'Add Category' }).click();
    await tag('Reading').waitFor();
    const reading = (await savedCategories()).find((category) => category.name === 'Reading');
    await plannedForToday('Read two chapters', reading._id);
    assert.ok((await categorySelectOptions()).has('Reading'), 'a new tag is offered on Today');

    await backToTags();
    await tag('Reading').dblclick();
    await dialog('Edit Category').getByRole('textbox', { name: 'Name' }).fill('Novels');
    await dialog('Edit Category').getByRole('button', { name: 'Save' }).click();
    await tag('Novels').waitFor();
    const renamed = await categorySelectOptions();
    assert.ok(renamed.has('Novels') && !renamed.has('Reading'), 'a renamed tag is offered by its new name');

    await backToTags();
    await tag('Novels').dblclick();
    await dialog('Edit Category').getByRole('button', { name: 'Delete', exact: true }).click();
    await tag('Novels').waitFor({ state: 'detached' });
    assert.ok(!(await categorySelectOptions()).has('Novels'), 'a deleted tag is no longer offered');
    const orphan = page().getByRole('main').locator('li, tr').filter({ hasText: 'Read two chapters' });
    await orphan.getByText('Unknown Category').waitFor();

    assert.equal(await page().evaluate(() => window.sameDocument), true, 'the page never reloaded');
  });
});
