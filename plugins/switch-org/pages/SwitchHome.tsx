import { Navigate } from 'react-router-dom';

/** `/users/switch` leads to the organisation switcher. */
export default function SwitchHome() {
  return <Navigate to="/users/switch/organization" replace />;
}
