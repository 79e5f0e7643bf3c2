/**
 * The router API a remote may use. Remotes import routing from here, never from react-router: this module is a shared
 * singleton provided by the shell, so a remote's links and hooks read the shell's one router, and the shell's bundle
 * carries only the router code that somebody uses (a shared react-router would have to ship all of it, about 60 KB
 * gzip, because any remote might import any export). A remote that needs more adds it here, in a commit of the shell.
 * The shell's own pages use it too: a host provides a shared module only if it imports it itself.
 */
export {
  Link,
  NavLink,
  Navigate,
  Outlet,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router-dom';
export type { LinkProps, Location, NavigateFunction } from 'react-router-dom';
