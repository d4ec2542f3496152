import { describe, expect, it } from 'vitest';
import { renderInOnePass } from '../../../tests/kit/web';
import { lazyLoaded, preload } from './lazyLoaded';

const page = (text: string) => {
  let loads = 0;
  const load = async () => {
    loads++;
    return { default: () => <p>{text}</p> };
  };
  return { load, loads: () => loads };
};

describe('lazyLoaded', () => {
  it('renders a preloaded module in the same pass, without suspending', async () => {
    const { load, loads } = page('Profile');
    const Page = lazyLoaded(load);
    await preload(load);
    expect(renderInOnePass(Page)).toContain('Profile');
    expect(loads()).toBe(1);
  });

  it('suspends like React.lazy for a module not loaded yet, and loads it once', async () => {
    const { load, loads } = page('Tokens');
    const Page = lazyLoaded(load);
    expect(renderInOnePass(Page)).toContain('waiting');
    await new Promise((r) => setTimeout(r, 0));
    expect(renderInOnePass(Page)).toContain('Tokens');
    // A second lazy component of the same loader finds the module the first one loaded.
    expect(renderInOnePass(lazyLoaded(load))).toContain('Tokens');
    expect(loads()).toBe(1);
  });

  it('leaves a failed load to the component, which asks again', async () => {
    let calls = 0;
    const load = () => {
      calls++;
      return calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve({ default: () => <p>Back</p> });
    };
    await expect(preload(load)).rejects.toThrow('offline');
    const Page = lazyLoaded(load);
    expect(renderInOnePass(Page)).toContain('waiting');
    await new Promise((r) => setTimeout(r, 0));
    expect(renderInOnePass(Page)).toContain('Back');
  });
});
