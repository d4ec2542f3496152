import { defineServerMessages } from '../../../server/i18n/index';

/**
 * Error codes of profile e-mail changes and activation, of avatar upload and of the appearance, in both languages the
 * service answers in.
 */
export const messages = defineServerMessages({
  en_US: {
    ProfileEmailInvalid: 'The format of the email address is invalid.',
    ProfileEmailAlreadyBound: 'The email address is already in use.',
    ProfileEmailBindingStatusWrong: 'The email address is not in a state that allows this.',
    ProfileEmailActivateMismatch: 'The email address to activate does not match.',
    ProfileEmailTokenMismatch: 'The activation link does not match.',
    ProfileEmailTooFrequent: 'Too many emails were sent, please try again in one minute.',
    ProfileEmailLinkExpired: 'The activation link has expired, please go to personal settings to reactivate.',
    ProfileEmailSendFailed: 'An error occurred while sending the activation email.',
    ProfileEmailCodeRequired: 'Enter the code sent to your current email to change it.',
    ProfileEmailCodeIncorrect: 'The code is incorrect or has expired; send a new one.',
    ProfileAccountLocked: 'The account is locked for 1 hour because of too many failed attempts.',
    ProfileAvatarFormat: 'Upload failed, only JPG, JPEG, PNG and GIF files are supported.',
    ProfileAvatarTooLarge: 'Upload failed, the image is larger than 1 MB.',
    ProfileAvatarUnreadable: 'Upload failed, the image cannot be read.',
    ProfileAvatarNotUploaded: 'The avatar must be an image uploaded to this service.',
    ProfileAvatarTooManyPixels: 'Upload failed, the image has more than {max} megapixels (e.g. 2048 × 2048).',
    ProfileAvatarUploadBusy: 'Another avatar upload of yours is under way; please wait for it to finish.',
    ProfileAvatarStorageFull:
      'Upload failed, the storage for avatars is full. Please ask your administrator to free space or raise the limit.',
    ProfileColorSchemeInvalid: 'The appearance must be system (follow the system), light or dark.',
  },
  zh_CN: {
    ProfileEmailInvalid: '邮箱地址格式不正确。',
    ProfileEmailAlreadyBound: '该邮箱已被绑定。',
    ProfileEmailBindingStatusWrong: '当前邮箱绑定状态有误。',
    ProfileEmailActivateMismatch: '要激活的邮箱不匹配。',
    ProfileEmailTokenMismatch: '激活链接不匹配。',
    ProfileEmailTooFrequent: '邮件发送过于频繁，请一分钟后再试。',
    ProfileEmailLinkExpired: '激活链接已过期，请前往个人设置重新激活。',
    ProfileEmailSendFailed: '发送激活邮件时出错。',
    ProfileEmailCodeRequired: '修改邮箱需要输入发送到当前邮箱的验证码。',
    ProfileEmailCodeIncorrect: '验证码不正确或已过期，请重新发送。',
    ProfileAccountLocked: '失败次数过多，账号已被锁定 1 小时。',
    ProfileAvatarFormat: '上传失败，文件格式仅支持 JPG、JPEG、PNG、GIF。',
    ProfileAvatarTooLarge: '上传失败，图片大小超过 1 MB。',
    ProfileAvatarUnreadable: '上传失败，无法读取该图片。',
    ProfileAvatarNotUploaded: '头像必须是上传到本服务的图片。',
    ProfileAvatarTooManyPixels: '上传失败，图片超过 {max} 百万像素（例如 2048 × 2048）。',
    ProfileAvatarUploadBusy: '你的另一个头像正在上传，请等它完成。',
    ProfileAvatarStorageFull: '上传失败，头像存储空间已满，请联系管理员清理空间或提高上限。',
    ProfileColorSchemeInvalid: '外观只能是 system（跟随系统）、light（浅色）或 dark（深色）。',
  },
});

declare module '../../../server/i18n/index' {
  /** This slice's codes are valid `AppError` codes wherever the slice is compiled in. */
  interface PluginMessageCodes {
    profile: keyof typeof messages.en_US;
  }
}
