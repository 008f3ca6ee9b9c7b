import type { DocumentPage } from "../documentTypes";

export const download: DocumentPage = {
  path: "/download",
  title: "Download Closewise for Mac | Closewise",
  description:
    "Download the Closewise desktop app for Mac: system requirements, install steps, first run, and how the app signs in with your browser or a device code.",
  h1: "Download Closewise for Mac",
  intro:
    "The desktop app is where the live hints appear during your calls. Choose the version for your Mac below; installing takes about 2 minutes. Windows is coming soon.",
  sections: [
    {
      id: "requirements",
      heading: "System requirements",
      blocks: [
        {
          list: [
            "A Mac with Apple Silicon (M1, M2, M3; 2020 and newer) or an Intel processor (2019 and older).",
            "A Closewise account: the Free Trial is enough to start.",
            "Windows: coming soon.",
          ],
        },
      ],
    },
    {
      id: "install",
      heading: "Install",
      blocks: [
        {
          steps: [
            "Choose Download for Mac and pick Apple Silicon or Intel. Not sure which? Open the Apple menu, choose About This Mac and look at Chip or Processor.",
            "Open the downloaded disk image (.dmg).",
            "Drag Closewise into the Applications folder.",
            "Open Closewise from Applications or Launchpad.",
          ],
        },
      ],
    },
    {
      id: "first-run",
      heading: "First run",
      blocks: [
        {
          text: "Before it first listens, the app shows its notice about call audio. When macOS asks whether Closewise may use audio, allow it: the app needs to hear the call to show live hints. Then sign in, start a call and the hints appear on your screen.",
        },
      ],
    },
    {
      id: "sign-in",
      heading: "Signing in from the app",
      blocks: [
        {
          list: [
            "In your browser: choose Sign in in the app. Your browser opens the Closewise sign-in page; sign in there as you do on this site and choose Continue. The app never sees your password.",
            "With a device code: if the browser cannot open on this Mac, the app shows a short code such as WDJB-MJHT. Open {activate} in a browser on any device, sign in, enter the code and choose Approve.",
          ],
        },
        {
          text: "No account yet? You can {signup} first: once you have confirmed your e-mail and signed in, you come back here.",
        },
        {
          text: "Devices in Account settings lists the apps signed in to your account, and signs any of them out; Sign out everywhere ends every session at once.",
        },
      ],
    },
    {
      id: "help",
      heading: "Help",
      blocks: [{ text: "Trouble installing or signing in? Write to {support}." }],
    },
  ],
};
