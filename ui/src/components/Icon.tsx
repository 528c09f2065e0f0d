// Small stroke icons drawn inline as SVG (no icon font, no remote resources).
const PATHS: Record<string, string> = {
  library: "M4 19V5a1 1 0 0 1 1-1h3v15H5a1 1 0 0 1-1-1Zm4 0V4h4v15M12 19V6l3.5-1 3.5 14-3.5 1Z",
  write: "M4 20h4L19 9l-4-4L4 16v4Zm9-13 4 4",
  manuscript: "M3 5.5C5.5 4.5 8.5 4.5 12 6c3.5-1.5 6.5-1.5 9-.5V19c-2.5-1-5.5-1-9 .5-3.5-1.5-6.5-1.5-9-.5V5.5ZM12 6v13.5",
  graph: "M6 7a2 2 0 1 0 0-.01M18 6a2 2 0 1 0 0-.01M12 18a2 2 0 1 0 0-.01M7.7 7.9l3.1 8.3M16.5 7.6l-3.2 8.6M8 6.5h8",
  timeline: "M6 4v16M6 7h12M6 12h9M6 17h11",
  loops: "M8 8a4 4 0 1 0 0 8c2.5 0 5.5-8 8-8a4 4 0 1 1 0 8c-2.5 0-5.5-8-8-8Z",
  bible: "M6 3h11a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H6a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2Zm-2 16a2 2 0 0 1 2-2h12M9 7h6M9 10h4",
  audit: "M7 4h10a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1ZM9 9l1.5 1.5L13 8M9 15l1.5 1.5L13 14M15 9.5h1M15 15.5h1",
  settings: "M4 7h10M18 7h2M4 17h4M12 17h8M14 5v4M8 15v4",
  export: "M12 4v11m0 0-4-4m4 4 4-4M5 19h14",
  sun: "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8ZM12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4",
  moon: "M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z",
  keyboard: "M3 7h18v10H3ZM7 10h.01M11 10h.01M15 10h.01M8 14h8",
  play: "M8 5v14l11-7Z",
  stop: "M7 7h10v10H7Z",
  close: "M6 6l12 12M18 6 6 18",
  check: "M5 12.5 10 17 19 7",
  alert: "M12 4 2.5 20h19ZM12 10v4M12 17h.01",
  folder: "M3 7a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1Z",
  plus: "M12 5v14M5 12h14",
  edit: "M4 20h4L18.5 9.5l-4-4L4 16v4Z",
  branch: "M6 8v8M8 6a2 2 0 1 1-4 0 2 2 0 0 1 4 0ZM8 18a2 2 0 1 1-4 0 2 2 0 0 1 4 0ZM20 6a2 2 0 1 1-4 0 2 2 0 0 1 4 0ZM18 8c0 5-12 3-12 8",
  history: "M3 12a9 9 0 1 0 3-6.7M3 4v4h4M12 7v5l3 2",
  rewind: "M11 6 4 12l7 6V6ZM20 6l-7 6 7 6V6Z",
  regenerate: "M20 11a8 8 0 1 0-2.3 5.7M20 5v6h-6",
  more: "M5 12h.01M12 12h.01M19 12h.01",
  compare: "M4 5h7v14H4ZM13 5h7v14h-7Z",
  search: "M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13ZM15.5 15.5 20 20",
  "chevron-up": "M6 15l6-6 6 6",
  "chevron-down": "M6 9l6 6 6-6",
  copy: "M9 9h10v11H9ZM5 15V4h10",
};

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.7}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
