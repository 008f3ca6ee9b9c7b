import { Laptop } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link } from "react-router";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { Spinner } from "../../../components/ui/Spinner";
import { ApiError } from "../../../lib/api/client";
import { useSignOutDevice } from "../../../lib/api/mutations";
import { useDevices } from "../../../lib/api/queries";
import type { Device } from "../../../lib/api/types";
import { absoluteTime, platformName, relativeTime } from "../../../lib/devices";

const signOutButtonId = (device: Device) => `device-sign-out-${device.id}`;
const DEVICES_TITLE = "devices-title";

function ConfirmSignOut({ device, focusAfter, onClose }: { device: Device; focusAfter: string[]; onClose: () => void }) {
  const signOut = useSignOutDevice();
  async function confirm() {
    try {
      await signOut.mutateAsync(device.id);
      toast.success(`${device.name} is signed out`);
    } catch (error) {
      // Already gone (404 device_not_found) or a failure: either way the list is read again (the mutation).
      toast.error(error instanceof ApiError ? error.message : "An unexpected error occurred");
    }
    onClose();
  }
  const busy = signOut.isPending;
  return (
    <Modal open onClose={onClose} title="Sign out this device?" fallbackFocus={focusAfter}>
      <p className="text-slate-700">
        {device.name} is signed out at once and stops showing live hints until you sign in on it again.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" disabled={busy} onClick={() => void confirm()}>
          {busy ? "Signing out..." : "Sign out"}
        </Button>
      </div>
    </Modal>
  );
}

function DeviceRow({ device, onSignOut }: { device: Device; onSignOut: () => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-4">
      <div>
        <p className="font-medium text-slate-900">
          {device.name}
          {device.current && (
            <span className="ml-2 rounded-full bg-blue-100 px-2 py-0.5 text-xs font-semibold text-blue-800">This device</span>
          )}
        </p>
        <p className="text-sm text-slate-600">
          {platformName(device.platform)} · Signed in <time dateTime={device.created_at}>{absoluteTime(device.created_at)}</time>
          {device.last_seen_at && (
            <>
              {" "}
              · Last seen <time dateTime={device.last_seen_at}>{relativeTime(device.last_seen_at)}</time>
            </>
          )}
        </p>
      </div>
      <Button id={signOutButtonId(device)} variant="secondary" aria-label={`Sign out ${device.name}`} onClick={onSignOut}>
        Sign out
      </Button>
    </li>
  );
}

/** Where focus goes when a device's row is gone: the next device's Sign out, the one before, the heading. */
function focusAfterSignOut(devices: Device[], gone: Device): string[] {
  const at = devices.findIndex((device) => device.id === gone.id);
  const neighbours = [devices[at + 1], devices[at - 1]].filter((device): device is Device => device !== undefined);
  return [...neighbours.map(signOutButtonId), DEVICES_TITLE];
}

function DeviceList() {
  const devices = useDevices();
  const [signingOut, setSigningOut] = useState<Device | null>(null);
  if (devices.isPending)
    return (
      <p role="status" className="mt-4 flex items-center gap-2 text-slate-600">
        <Spinner /> Loading your devices...
      </p>
    );
  if (devices.isError)
    return (
      <div className="mt-4">
        <p role="alert" className="text-sm text-red-700">
          Could not load your devices.
        </p>
        <Button variant="secondary" className="mt-3" onClick={() => void devices.refetch()}>
          Try again
        </Button>
      </div>
    );
  if (devices.data.length === 0)
    return (
      <p className="mt-4 text-slate-600">
        No desktop apps are signed in.{" "}
        <Link to="/download" className="font-medium text-blue-700 underline hover:text-blue-900">
          Download the app
        </Link>{" "}
        to get live hints during calls.
      </p>
    );
  return (
    <>
      <ul className="mt-2 divide-y divide-slate-200">
        {devices.data.map((device) => (
          <DeviceRow key={device.id} device={device} onSignOut={() => setSigningOut(device)} />
        ))}
      </ul>
      {signingOut && (
        <ConfirmSignOut
          device={signingOut}
          focusAfter={focusAfterSignOut(devices.data, signingOut)}
          onClose={() => setSigningOut(null)}
        />
      )}
    </>
  );
}

/** The desktop apps signed in to this account, each with its own Sign out. */
export function Devices() {
  return (
    <section
      id="devices"
      aria-labelledby="devices-title"
      className="scroll-mt-20 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={DEVICES_TITLE} tabIndex={-1} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Laptop aria-hidden className="h-5 w-5" /> Devices
      </h2>
      <DeviceList />
    </section>
  );
}
