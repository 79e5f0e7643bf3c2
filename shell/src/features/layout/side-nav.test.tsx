import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { selectThemePreference } from '@time-wallet/api';
import { resetTestEnvironment } from '@time-wallet/api/testing';
import { renderAt } from '../../testing/render';
import { SideNav, WalletTabs } from './side-nav';

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
const tabs = () => screen.getByRole('navigation', { name: 'Tabs' });

describe('SideNav', () => {
  beforeEach(() => resetTestEnvironment());

  it('links the wallet, calendar, analytics, account, about and logout pages', () => {
    renderAt(<SideNav />, '/app/wallet');
    const nav = within(mainNav());

    expect(nav.getByRole('link', { name: 'Time Wallet home' })).toHaveAttribute('href', '/app/wallet');
    expect(nav.getByRole('link', { name: 'Wallet' })).toHaveAttribute('href', '/app/wallet');
    expect(nav.getByRole('link', { name: 'Calendar' })).toHaveAttribute('href', '/app/calendar');
    expect(nav.getByRole('link', { name: 'Analytics' })).toHaveAttribute('href', '/app/analytics');
    expect(nav.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/app/account');
    expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('href', '/app/about');
    expect(nav.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/app/logout');
  });

  it('marks Account as the current page on /app/account, and nothing else', () => {
    renderAt(<SideNav />, '/app/account');
    const nav = within(mainNav());

    expect(nav.getByRole('link', { name: 'Account' })).toHaveAttribute('aria-current', 'page');
    for (const name of ['Wallet', 'Calendar', 'Analytics', 'About', 'Logout'])
      expect(nav.getByRole('link', { name })).not.toHaveAttribute('aria-current');
  });

  it('marks About as the current page on /app/about, and nothing else', () => {
    renderAt(<SideNav />, '/app/about');
    const nav = within(mainNav());

    expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');
    for (const name of ['Wallet', 'Calendar', 'Analytics', 'Account', 'Logout'])
      expect(nav.getByRole('link', { name })).not.toHaveAttribute('aria-current');
  });

  it('offers the light, dark and system themes, the stored one checked', () => {
    window.localStorage.setItem('theme', 'light');
    renderAt(<SideNav />, '/app/wallet');
    const theme = within(screen.getByRole('group', { name: 'Theme' }));

    expect(theme.getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(theme.getByRole('radio', { name: 'Dark' })).not.toBeChecked();
    expect(theme.getByRole('radio', { name: 'System' })).not.toBeChecked();
  });

  it.each(['/app/wallet', '/app/today', '/app/yesterday', '/app/edit-tags'])(
    'marks Wallet as the current page on %s',
    (path) => {
      renderAt(<SideNav />, path);
      const nav = within(mainNav());

      expect(nav.getByRole('link', { name: 'Wallet' })).toHaveAttribute('aria-current', 'page');
      expect(nav.getByRole('link', { name: 'Calendar' })).not.toHaveAttribute('aria-current');
      expect(nav.getByRole('link', { name: 'Analytics' })).not.toHaveAttribute('aria-current');
    },
  );

  it.each([
    ['/app/calendar', 'Calendar'],
    ['/app/analytics', 'Analytics'],
  ])('marks only %s as current there', (path, current) => {
    renderAt(<SideNav />, path);
    const nav = within(mainNav());

    expect(nav.getByRole('link', { name: current })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Wallet' })).not.toHaveAttribute('aria-current');
  });

  it('switches to the dark theme and remembers it on this device', async () => {
    const { store } = renderAt(<SideNav />, '/app/wallet');

    await userEvent.click(screen.getByRole('radio', { name: 'Dark' }));

    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'System' })).not.toBeChecked();
    expect(selectThemePreference(store.getState())).toBe('dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });
});

describe('WalletTabs', () => {
  beforeEach(() => resetTestEnvironment());

  it('lists Wallet, Today, Yesterday and Edit Tags under Tabs', () => {
    renderAt(<WalletTabs />, '/app/wallet');

    expect(within(tabs()).getByRole('heading', { name: 'Tabs' })).toBeInTheDocument();
    expect(
      within(tabs())
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Wallet', '/app/wallet'],
      ['Today', '/app/today'],
      ['Yesterday', '/app/yesterday'],
      ['Edit Tags', '/app/edit-tags'],
    ]);
  });

  it.each([
    ['/app/wallet', 'Wallet'],
    ['/app/today', 'Today'],
    ['/app/yesterday', 'Yesterday'],
    ['/app/edit-tags', 'Edit Tags'],
  ])('marks the current tab on %s', (path, current) => {
    renderAt(<WalletTabs />, path);

    const marked = within(tabs())
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page')
      .map((link) => link.textContent);
    expect(marked).toEqual([current]);
  });
});
