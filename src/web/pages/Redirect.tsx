import { Navigate, useLocation } from 'react-router';

/** /redirect/{path}: lands on {path} afresh (spec 2.1), keeping the query string. */
export default function Redirect() {
  const { pathname, search } = useLocation();
  return <Navigate to={`${pathname.replace(/^\/redirect/, '') || '/dashboard'}${search}`} replace />;
}
