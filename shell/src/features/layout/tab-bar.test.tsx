import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { selectThemePreference } from '@time-wallet/api';
import { resetTestEnvironment } from '@time-wallet/api/testing';
import { LocationProbe, renderRoutes } from '../../testing/render';
import { SideNav } from './side-nav';
import { TabBar } from './tab-bar';

const bar = () => within(screen.getByRole('navigation', { name: 'Tab bar' }));

/** The bar on every path, over a probe that says where the router is. */
function renderBarAt(path: string) {
  const element = (
    <>
      <LocationProbe />
      <TabBar />
    </>
  );
  return renderRoutes([{ path: '*', element }], { initialEntries: [path] });
}

const currentTabs = () =>
  bar()
    .getAllByRole('link')
    .filter((link) => link.getAttribute('aria-current') === 'page')
    .map((link) => link.textContent);

describe('TabBar', () => {
  beforeEach(() => resetTestEnvironment());

  it('leads to Wallet, Today, Calendar and Analytics, the registry paths, each with its label', () => {
    renderBarAt('/app/wallet');

    expect(
      bar()
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Wallet', '/app/wallet'],
      ['Today', '/app/today'],
      ['Calendar', '/app/calendar'],
      ['Analytics', '/app/analytics'],
    ]);
    expect(bar().getByRole('button', { name: 'More' })).toHaveAttribute('aria-expanded', 'false');
  });

  it.each([
    ['/app/wallet', 'Wallet'],
    ['/app/today', 'Today'],
    ['/app/yesterday', 'Wallet'],
    ['/app/edit-tags', 'Wallet'],
    ['/app/calendar', 'Calendar'],
    ['/app/analytics', 'Analytics'],
  ])('on %s marks %s alone as the current page', (path, current) => {
    renderBarAt(path);
    expect(currentTabs()).toEqual([current]);
  });

  it('marks no tab on a page of the menu', () => {
    renderBarAt('/app/account');
    expect(currentTabs()).toEqual([]);
  });

  it('moves between the tabs from the keyboard', async () => {
    const user = userEvent.setup();
    renderBarAt('/app/wallet');

    await user.tab();
    expect(bar().getByRole('link', { name: 'Wallet' })).toHaveFocus();
    await user.tab();
    await user.keyboard('{Enter}');

    expect(screen.getByText('At /app/today')).toBeInTheDocument();
    expect(currentTabs()).toEqual(['Today']);
  });

  it('opens More as a dialog with the theme, Account, About and Logout, focus inside, and Escape closes it', async () => {
    const user = userEvent.setup();
    renderBarAt('/app/today');
    const more = bar().getByRole('button', { name: 'More' });

    more.focus();
    await user.keyboard('{Enter}');

    const dialog = within(screen.getByRole('dialog', { name: 'More' }));
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(dialog.getByRole('link', { name: 'Account' })).toHaveFocus();
    expect(dialog.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Account', '/app/account'],
      ['About', '/app/about'],
      ['Logout', '/app/logout'],
    ]);
    expect(dialog.getByRole('group', { name: 'Theme' })).toBeInTheDocument();

    await user.keyboard('{Escape}');

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(more).toHaveFocus();
    expect(more).toHaveAttribute('aria-expanded', 'false');
  });

  it('keeps Tab inside the menu while it is open', async () => {
    const user = userEvent.setup();
    renderBarAt('/app/today');
    await user.click(bar().getByRole('button', { name: 'More' }));
    const dialog = screen.getByRole('dialog', { name: 'More' });

    for (let step = 0; step < 6; step += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it('goes to a page chosen in the menu and closes it', async () => {
    const user = userEvent.setup();
    renderBarAt('/app/today');

    await user.click(bar().getByRole('button', { name: 'More' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('link', { name: 'Account' }));

    expect(screen.getByText('At /app/account')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('switches the theme from the menu, its radios a group apart from any other theme switch', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem('theme', 'light');
    // The side navigation stays in the page on a phone, hidden, with a switch of its own.
    const element = (
      <>
        <SideNav />
        <TabBar />
      </>
    );
    const { store } = renderRoutes([{ path: '*', element }], { initialEntries: ['/app/wallet'] });

    await user.click(bar().getByRole('button', { name: 'More' }));
    const dark = within(screen.getByRole('dialog')).getByRole('radio', { name: 'Dark' });
    await user.click(dark);

    expect(dark).toBeChecked();
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('radio', { name: 'Dark' }),
    ).toBeChecked();
    expect(selectThemePreference(store.getState())).toBe('dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });
});
