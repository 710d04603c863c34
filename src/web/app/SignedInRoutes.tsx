import { AppShell } from '../shell/AppShell';
import { EntryGate } from './EntryGate';

/** Everything behind sign-in: the page-entry flow, then the shell around the routed page. */
export default function SignedInRoutes() {
  return (
    <EntryGate>
      <AppShell />
    </EntryGate>
  );
}
