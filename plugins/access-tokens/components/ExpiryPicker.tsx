import { Radio, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useIntl } from 'react-intl';
import { DATE_FORMAT } from '../../../src/core/i18n/format';
import { LazyDatePicker } from '../../../src/core/ui/LazyDatePicker';
import { EXPIRY_PRESET_DAYS, expiresAtForDay, expiresAtForPreset } from '../expiry';

/** A chosen expiry: a preset number of days from today, or a day picked in the calendar. */
export type ExpiryChoice = `${(typeof EXPIRY_PRESET_DAYS)[number]}` | 'custom';

/** The expiry a choice stands for (ISO, end of the day minus 2 s), undefined until it is complete. */
export function expiryOf(choice: ExpiryChoice | undefined, date: Dayjs | null): string | undefined {
  if (choice === 'custom') return date ? expiresAtForDay(date) : undefined;
  return choice ? expiresAtForPreset(Number(choice)) : undefined;
}

/** Props of the expiry picker. */
export interface ExpiryPickerProps {
  /** Id of the element that labels the choice (a form item's label). */
  labelledBy: string;
  choice: ExpiryChoice | undefined;
  date: Dayjs | null;
  onChoice: (choice: ExpiryChoice) => void;
  onDate: (date: Dayjs | null) => void;
}

/** The presets (7/30/60/90 days) as buttons and "Custom" with a calendar: the create drawer's and the renew dialog's. */
export function ExpiryPicker({ labelledBy, choice, date, onChoice, onDate }: ExpiryPickerProps) {
  const intl = useIntl();
  return (
    <Space wrap>
      <Radio.Group
        aria-labelledby={labelledBy}
        optionType="button"
        value={choice}
        onChange={(e) => onChoice(e.target.value as ExpiryChoice)}
        options={[
          ...EXPIRY_PRESET_DAYS.map((days) => ({
            value: String(days),
            label: intl.formatMessage({ id: 'access-tokens.form.presetDays' }, { days }),
          })),
          { value: 'custom', label: intl.formatMessage({ id: 'access-tokens.form.custom' }) },
        ]}
      />
      {choice === 'custom' && (
        <LazyDatePicker
          aria-label={intl.formatMessage({ id: 'access-tokens.form.expiryDate' })}
          format={DATE_FORMAT}
          value={date}
          allowClear={false}
          disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
          onChange={(d) => onDate(d)}
        />
      )}
    </Space>
  );
}
