//! A QR code as SVG squares (uqr encodes it). Loaded only by the authenticator app's set-up screen.

import { encode } from "uqr";

export default function Qr({ value, label }: { value: string; label: string }) {
  const { size, data } = encode(value, { ecc: "M", border: 2 });
  const squares: string[] = [];
  data.forEach((row, y) => row.forEach((dark, x) => dark && squares.push(`M${x} ${y}h1v1h-1z`)));
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} className="h-48 w-48 bg-white" shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={squares.join("")} fill="#000" />
    </svg>
  );
}
