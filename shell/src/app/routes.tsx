import { Navigate, type RouteObject } from 'react-router-dom';
import { LandingPage } from '../features/landing/landing-page';
import { AppLayout } from '../features/layout/app-layout';
import { RemotePage } from '../features/remotes/remote-page';
import { GuestOnly, RequireAuth, RequireConfirmedSession } from '../features/session/guards';
import { ShellFrame } from './shell-frame';

export const routes: RouteObject[] = [
  {
    element: <ShellFrame />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/landing', element: <LandingPage /> },
      {
        path: '/auth',
        children: [
          {
            element: <GuestOnly />,
            children: [
              { path: 'login', element: <RemotePage name="login" /> },
              { path: 'register', element: <RemotePage name="register" /> },
            ],
          },
          { path: 'forgot-password', element: <RemotePage name="forgotPassword" /> },
          { path: 'reset-password', element: <RemotePage name="resetPassword" /> },
        ],
      },
      {
        path: '/app',
        element: <RequireAuth />,
        children: [
          { index: true, element: <Navigate to="/app/wallet" replace /> },
          { path: 'calendar', element: <RemotePage name="calendar" /> },
          { path: 'logout', element: <RemotePage name="logout" /> },
          {
            element: <AppLayout />,
            children: [
              { path: 'wallet', element: <RemotePage name="wallet" /> },
              { path: 'today', element: <RemotePage name="today" /> },
              { path: 'yesterday', element: <RemotePage name="yesterday" /> },
              { path: 'edit-tags', element: <RemotePage name="tags" /> },
              { path: 'account', element: <RemotePage name="account" /> },
              {
                path: 'analytics',
                element: (
                  <RequireConfirmedSession>
                    <RemotePage name="analytics" />
                  </RequireConfirmedSession>
                ),
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
