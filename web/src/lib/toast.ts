//! Toast durations and limits of the spec: bottom centre, 4 s default and error, 2 s success, 20 at once
//! (react-hot-toast's own limit is 20).
import type { ToasterProps } from "react-hot-toast";

export const toasterProps: ToasterProps = {
  position: "bottom-center",
  toastOptions: {
    duration: 4000,
    success: { duration: 2000 },
    error: { duration: 4000 },
  },
};

export const TOAST_LIMIT = 20;
