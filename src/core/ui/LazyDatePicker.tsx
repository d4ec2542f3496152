import { Skeleton, type DatePickerProps } from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, type ComponentType } from 'react';

// antd's date picker is the largest component the product uses (about 32 KB gzip of calendar code), and
// forms show it only once a person picks "a date": it loads then, not with the page.
const DatePicker = lazy<ComponentType<DatePickerProps<Dayjs, false>>>(
  () => import(/* webpackChunkName: "antd-date-picker" */ 'antd/es/date-picker'),
);

/** antd's DatePicker (one date), loaded on first render; a skeleton of its size stands in for the moment it takes. */
export function LazyDatePicker(props: DatePickerProps<Dayjs, false>) {
  return (
    <Suspense fallback={<Skeleton.Input active size="default" style={{ width: 168 }} />}>
      <DatePicker {...props} />
    </Suspense>
  );
}
