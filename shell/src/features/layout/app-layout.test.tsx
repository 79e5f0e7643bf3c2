import { act, screen, waitFor } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { api } from '@time-wallet/api';
import {
  mockApi,
  recordRenders,
  resetTestEnvironment,
  stubMatchMedia,
  type MockHandler,
} from '@time-wallet/api/testing';
import { renderRoutes } from '../../testing/render';
import { AppLayout } from './app-layout';

const CATEGORY = { _id: 'c1', name: 'Health', color: '#2e7d32', userId: 'u1' };

/** The signed-in frame at /app/wallet with a page that never changes, beside a toaster. */
function renderLayout(categories: MockHandler) {
  const server = mockApi({ 'GET /categories': categories });
  const routes = [
    {
      path: '/app',
      element: (
        <>
          <AppLayout />
          <Toaster />
        </>
      ),
      children: [{ path: 'wallet', element: <p>The wallet page</p> }],
    },
  ];
  return { ...renderRoutes(routes, { initialEntries: ['/app/wallet'] }), server };
}

const categoriesRead = (store: ReturnType<typeof renderLayout>['store']) =>
  Object.values(store.getState()[api.reducerPath].queries).find(
    (query) => query?.endpointName === 'getCategories',
  );

describe('AppLayout', () => {
  beforeEach(() => {
    resetTestEnvironment();
    stubMatchMedia(() => false);
  });
  afterEach(() => {
    act(() => toast.remove());
    jest.restoreAllMocks();
  });

  it('loads the categories once and is not drawn again for their answer', async () => {
    const renders = recordRenders();
    try {
      const { store, server } = renderLayout({ body: [CATEGORY] });
      expect(screen.getByText('The wallet page')).toBeInTheDocument();
      await waitFor(() => expect(categoriesRead(store)?.status).toBe('fulfilled'));
      expect(server.requestsTo('GET', '/categories')).toHaveLength(1);
      expect({ layout: renders.count('AppLayout'), nav: renders.count('SideNav') }).toEqual({
        layout: 1,
        nav: 1,
      });
    } finally {
      renders.stop();
    }
  });

  it("says 'Failed to fetch categories.' once when the list cannot be read", async () => {
    renderLayout({ status: 500, body: { message: 'Internal error' } });
    expect(await screen.findByText('Failed to fetch categories.')).toBeInTheDocument();
    expect(screen.getAllByText('Failed to fetch categories.')).toHaveLength(1);
    expect(screen.getByText('The wallet page')).toBeInTheDocument();
  });
});
