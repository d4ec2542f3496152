import { defineServerMessages } from '../../../server/i18n/index';

/** Error codes of profile e-mail activation and avatar upload, in both languages the service answers in. */
export const messages = defineServerMessages({
  en_US: {
    ProfileEmailInvalid: 'The format of the email address is invalid.',
    ProfileEmailAlreadyBound: 'The mailbox is already bound.',
    ProfileEmailBindingStatusWrong: 'The current mailbox binding status is wrong.',
    ProfileEmailActivateMismatch: 'The mailbox to activate does not match.',
    ProfileEmailTokenMismatch: 'The token does not match.',
    ProfileEmailTooFrequent: 'Too many emails were sent, please try again in one minute.',
    ProfileEmailLinkExpired: 'The activation link has expired, please go to personal settings to reactivate.',
    ProfileEmailSendFailed: 'An error occurred while sending the activation email.',
    ProfileAvatarFormat: 'Upload failed, file format only supports JPG,JPEG,PNG,GIF.',
    ProfileAvatarTooLarge: 'Upload failed, image size exceeds 1M.',
    ProfileAvatarUnreadable: 'Upload failed, the image cannot be read.',
    ProfileAvatarNotUploaded: 'The avatar must be an image uploaded to this service.',
  },
  zh_CN: {
    ProfileEmailInvalid: '邮箱地址格式不正确。',
    ProfileEmailAlreadyBound: '该邮箱已被绑定。',
    ProfileEmailBindingStatusWrong: '当前邮箱绑定状态有误。',
    ProfileEmailActivateMismatch: '要激活的邮箱不匹配。',
    ProfileEmailTokenMismatch: 'token 不匹配。',
    ProfileEmailTooFrequent: '邮件发送过于频繁，请一分钟后再试。',
    ProfileEmailLinkExpired: '激活链接已过期，请前往个人设置重新激活。',
    ProfileEmailSendFailed: '发送激活邮件时出错。',
    ProfileAvatarFormat: '上传失败，文件格式仅支持 JPG、JPEG、PNG、GIF。',
    ProfileAvatarTooLarge: '上传失败，图片大小超过 1M。',
    ProfileAvatarUnreadable: '上传失败，无法读取该图片。',
    ProfileAvatarNotUploaded: '头像必须是上传到本服务的图片。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    profile: keyof typeof messages.en_US;
  }
}
