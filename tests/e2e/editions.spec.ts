import { expect, test } from './fixtures';

// Every edition's bundle is served by the real service with its own language, title and brand colour.
const expected: Record<string, { lang: string; title: RegExp; color: string }> = {
  vpc: { lang: 'zh-CN', title: /专有云个人设置/, color: '#006AD4' },
  aliyun: { lang: 'zh-CN', title: /云效个人设置/, color: '#C75000' },
  dedicated: { lang: 'zh-CN', title: /专属版个人设置/, color: '#2A55E5' },
  dedicated_intl: { lang: 'en', title: /Dedicated International Settings/, color: '#3D6BE0' },
  global: { lang: 'en', title: /Global Account Settings/, color: '#1A73E8' },
};

test('the edition bundle loads with its language, title and brand colour', async ({ page }, info) => {
  const e = expected[info.project.name];
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto('/users/login');
  await expect(page.locator('html')).toHaveAttribute('lang', e.lang);
  await expect(page).toHaveTitle(e.title);
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', e.color);
  await expect(page.locator('#container')).not.toBeEmpty();
  expect(errors).toEqual([]);
});
