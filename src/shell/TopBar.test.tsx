import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, ok } from '../../tests/kit/fake-backend';
import { renderWithCore } from '../../tests/kit/web';
import { createRegistry, definePlugin, RegistryError, type HeaderItem } from '../core/plugin';
import { TopBar } from './TopBar';

const item = (key: string, text: string): HeaderItem => ({
  key,
  load: () => Promise.resolve({ default: () => <span data-testid={`item-${key}`}>{text}</span> }),
});

describe('top bar contributions', () => {
  it('renders the plugins’ controls lazily for a signed-in user, before help and language', async () => {
    await renderWithCore(<TopBar headerItems={[item('a', 'A'), item('b', 'B')]} />);
    const a = await screen.findByTestId('item-a');
    expect(screen.getByTestId('item-b')).toBeTruthy();
    const language = screen.getByTestId('language-switch');
    expect(a.compareDocumentPosition(language) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows no control to someone not signed in', async () => {
    await renderWithCore(<TopBar headerItems={[item('a', 'A')]} />, { user: null });
    await act(async () => {});
    expect(screen.queryByTestId('item-a')).toBeNull();
    expect(screen.getByTestId('language-switch')).toBeTruthy();
  });

  it('leaves out a control whose chunk fails to load; the bar keeps working', async () => {
    const broken: HeaderItem = { key: 'broken', load: () => Promise.reject(new Error('offline')) };
    const spy = console.error;
    console.error = () => {};
    try {
      await renderWithCore(<TopBar headerItems={[broken, item('ok', 'fine')]} />);
      expect(await screen.findByTestId('item-ok')).toBeTruthy();
    } finally {
      console.error = spy;
    }
    expect(screen.getByTestId('language-switch')).toBeTruthy();
  });

  it('shows the message bell of an edition with the notifications plugin, and none without it', async () => {
    const backend = fakeBackend({
      'POST /users/ajax/v1/notifications/inbox/messages/unread:countGroupByApp': ok({ unread: 3, total: 5, apps: [] }),
    });
    // renderWithCore builds the registry of every plugin, as an edition listing them all would.
    await renderWithCore(<TopBar />, { backend });
    const bell = await screen.findByTestId('inbox-bell');
    expect(bell.getAttribute('href')).toBe('/users/notifications');
    await waitFor(() => expect(screen.getByTestId('inbox-bell-count').textContent).toBe('3'));
    expect(bell.getAttribute('aria-label')).toBe('Messages, 3 unread');
    cleanup();

    await renderWithCore(<TopBar headerItems={createRegistry([]).headerItems} />, { backend });
    await act(async () => {});
    expect(screen.queryByTestId('inbox-bell')).toBeNull();
  });

  it('refuses two header items with one key', () => {
    const plugin = (id: string) =>
      definePlugin({ id, headerItems: [item('bell', 'x')], messages: { zh_CN: {}, en_US: {} } });
    expect(() => createRegistry([plugin('x'), plugin('y')])).toThrow(RegistryError);
    expect(() => createRegistry([plugin('x'), plugin('y')])).toThrow('duplicate header item "bell" (plugin "y")');
    expect(createRegistry([plugin('x')]).headerItems.map((h) => h.key)).toEqual(['bell']);
  });
});
