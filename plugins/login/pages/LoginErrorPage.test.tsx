import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithCore } from '../../../tests/kit/web';
import LoginErrorPage from './LoginErrorPage';

/** The failure page at `query`, in `locale`: its title, description and buttons (text → href). */
async function open(query: string, locale: 'zh_CN' | 'en_US' = 'en_US') {
  await renderWithCore(<LoginErrorPage />, { user: null, route: `/login/errors${query}`, locale });
  const title = (await screen.findByText((_, el) => !!el?.classList.contains('ant-result-title'))).textContent;
  const description = document.querySelector('.ant-result-subtitle')?.textContent;
  const buttons = Object.fromEntries(
    [...document.querySelectorAll('.ant-result-extra a')].map((a) => [a.textContent, a.getAttribute('href')]),
  );
  return { title, description, buttons };
}

const BACK_EN = { 'Back to sign in': '/users/login' };
const BACK_ZH = { 返回登录: '/users/login' };

describe('third-party sign-in failure pages', () => {
  it.each([
    [
      '?type=notSupported&provider=dingtalk',
      'DingTalk sign-in is not supported',
      'This instance does not offer sign-in with DingTalk. Sign in with your account and password.',
      BACK_EN,
    ],
    [
      '?type=notBound&provider=lark',
      'This Lark account is not linked',
      'Sign in with your account and password to link it; next time you can sign in with Lark directly.',
      { 'Sign in and link': '/users/login?bind=1', ...BACK_EN },
    ],
    [
      '?type=noAccountInfo&provider=wecom',
      'No account information',
      'WeCom did not return your account information. Please try again or contact your administrator.',
      BACK_EN,
    ],
    ['?type=loginFailed&provider=wecom', 'Sign-in failed', 'Signing in with WeCom failed. Please try again.', BACK_EN],
  ])('en_US %s', async (query, title, description, buttons) => {
    expect(await open(query)).toEqual({ title, description, buttons });
  });

  it.each([
    [
      '?type=notSupported&provider=dingtalk',
      '暂不支持钉钉登录',
      '当前实例未开放钉钉登录，请使用账号密码登录。',
      BACK_ZH,
    ],
    [
      '?type=notBound&provider=lark',
      '飞书账号未绑定',
      '请使用账号密码登录以完成绑定，下次即可直接使用飞书登录。',
      { 登录并绑定: '/users/login?bind=1', ...BACK_ZH },
    ],
    [
      '?type=noAccountInfo&provider=wecom',
      '未获取到登录账号信息',
      '企业微信未返回您的账号信息，请重试或联系管理员。',
      BACK_ZH,
    ],
    ['?type=loginFailed&provider=dingtalk', '账号登录失败', '钉钉登录失败，请重试。', BACK_ZH],
  ])('zh_CN %s', async (query, title, description, buttons) => {
    expect(await open(query, 'zh_CN')).toEqual({ title, description, buttons });
  });

  it('speaks generally without a known provider', async () => {
    expect(await open('?type=notSupported&provider=github')).toMatchObject({
      title: 'This sign-in method is not supported',
      description: 'This instance does not offer this sign-in method. Sign in with your account and password.',
    });
    cleanup();
    expect(await open('?type=notBound', 'zh_CN')).toMatchObject({
      title: '账号未绑定',
      description: '请使用账号密码登录以完成绑定，下次即可直接使用该方式登录。',
    });
  });

  it('shows an unknown or missing type as a failed sign-in', async () => {
    expect(await open('?type=weird&provider=dingtalk')).toMatchObject({
      title: 'Sign-in failed',
      description: 'Signing in with DingTalk failed. Please try again.',
      buttons: BACK_EN,
    });
    cleanup();
    expect(await open('')).toMatchObject({
      title: 'Sign-in failed',
      description: 'Signing in failed. Please try again.',
    });
  });
});
