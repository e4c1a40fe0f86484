"use client"

import { Toaster as Sonner, type ToasterProps } from "sonner"

// Adapted from shadcn's sonner.tsx: the theme is fixed to light (docs/behaviour.md §9) instead of
// following next-themes, which this app does not use; the toast colours
// therefore stay sonner's own light palette even when the page is dark.
const Toaster = ({ ...props }: ToasterProps) => {
  return (
    <Sonner
      theme="light"
      className="toaster group"
      {...props}
    />
  )
}

export { Toaster }
