import { Checkbox, Radio, Tag, Typography } from 'antd';
import { FormattedMessage, useIntl } from 'react-intl';
import type { TokenScope } from '../contract';
import { areaState, setPermission, toggleScope, type ScopeSelection } from '../scopes';
import { MUTED_COLOR } from './styles';

/** Props of the scope chooser. */
export interface ScopeTreeProps {
  tree: TokenScope[];
  value: ScopeSelection;
  onChange: (next: ScopeSelection) => void;
}

const keyStyle = { fontSize: 12, marginInlineStart: 8, color: MUTED_COLOR } as const;

/**
 * Areas with their resources: checking an area selects all its resources, unchecking removes them
 * all; each chosen resource is read-only or read/write where the catalogue offers write.
 */
export function ScopeTree({ tree, value, onChange }: ScopeTreeProps) {
  const intl = useIntl();
  const permissionOptions = [
    { value: 'read', label: intl.formatMessage({ id: 'access-tokens.scope.readOnly' }) },
    { value: 'write', label: intl.formatMessage({ id: 'access-tokens.scope.readWrite' }) },
  ];
  return (
    <ul className="access-token-scopes" style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="scope-tree">
      {tree.map((area) => {
        const state = areaState(area, value);
        return (
          <li key={area.scope_key} style={{ marginBottom: 12 }}>
            <div style={{ padding: '6px 12px', background: 'var(--ant-color-fill-quaternary)', borderRadius: 6 }}>
              <Checkbox
                checked={state === 'all'}
                indeterminate={state === 'some'}
                onChange={(e) => onChange(toggleScope(area, value, e.target.checked))}
              >
                <Typography.Text strong>{area.scope_desc}</Typography.Text>{' '}
                <Typography.Text style={keyStyle}>{area.scope_key}</Typography.Text>
              </Checkbox>
            </div>
            <ul style={{ listStyle: 'none', margin: 0, padding: '4px 0 0 36px' }}>
              {area.sub_scopes.map((leaf) => {
                const chosen = value[leaf.scope_key];
                return (
                  <li
                    key={leaf.scope_key}
                    style={{
                      display: 'flex',
                      alignItems: 'center',
                      justifyContent: 'space-between',
                      gap: 8,
                      minHeight: 32,
                      flexWrap: 'wrap',
                    }}
                  >
                    <Checkbox checked={!!chosen} onChange={(e) => onChange(toggleScope(leaf, value, e.target.checked))}>
                      {leaf.scope_desc} <Typography.Text style={keyStyle}>{leaf.scope_key}</Typography.Text>
                    </Checkbox>
                    {leaf.scope_operate === 'read_write' ? (
                      <Radio.Group
                        size="small"
                        optionType="button"
                        options={permissionOptions}
                        value={chosen ?? 'read'}
                        disabled={!chosen}
                        aria-label={intl.formatMessage(
                          { id: 'access-tokens.scope.permissionOf' },
                          { scope: leaf.scope_desc },
                        )}
                        onChange={(e) => onChange(setPermission(leaf, value, e.target.value as 'read' | 'write'))}
                      />
                    ) : (
                      <Tag style={{ marginInlineEnd: 0 }}>
                        <FormattedMessage id="access-tokens.scope.readOnly" />
                      </Tag>
                    )}
                  </li>
                );
              })}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}
