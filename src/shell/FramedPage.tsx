import type { ReactNode } from 'react';
import { AppLayout } from './AppLayout';

/** A top-level page inside the product frame; its own chunk so the frame is not in the initial bundle. */
export default function FramedPage({ children }: { children: ReactNode }) {
  return <AppLayout>{children}</AppLayout>;
}
