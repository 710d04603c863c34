/**
 * Every message the server and the app both show, in the spec's Chinese (the default) and in English.
 * Keys are stable; the server answers with the caller's locale, the app looks the same key up.
 */
export type Locale = 'zh-CN' | 'en-US';
export const DEFAULT_LOCALE: Locale = 'zh-CN';

export const messages = {
  'password.old.required': { 'zh-CN': '请输入原密码', 'en-US': 'Please enter the old password' },
  'password.old.tooLong': { 'zh-CN': '输入长度需小于20', 'en-US': 'Must be shorter than 20 characters' },
  'password.new.required': { 'zh-CN': '请输入密码', 'en-US': 'Please enter the password' },
  'password.new.weak': {
    'zh-CN': '密码是数字、大小写字母、特殊字符三种及以上组合,且长度8-15位',
    'en-US':
      'The password must be 8-15 characters and combine at least three of digits, upper case, lower case and special characters',
  },
  'password.new.sameAsOld': {
    'zh-CN': '新密码不能与原密码相同',
    'en-US': 'The new password must differ from the old one',
  },
  'password.confirm.required': { 'zh-CN': '请再次输入密码', 'en-US': 'Please enter the password again' },
  'password.confirm.mismatch': { 'zh-CN': '两次输入密码不一致!', 'en-US': 'The two passwords do not match!' },
  'password.old.wrong': { 'zh-CN': '原密码错误', 'en-US': 'The old password is wrong' },
  'signature.badPassword': { 'zh-CN': '密码错误，签名未完成', 'en-US': 'Wrong password: nothing was signed' },
  'password.changed': { 'zh-CN': '密码修改成功', 'en-US': 'Password changed' },
  'login.username.required': { 'zh-CN': '请输入用户名', 'en-US': 'Please enter the user name' },
  'login.password.required': { 'zh-CN': '请输入密码', 'en-US': 'Please enter the password' },
  'login.badCredentials': { 'zh-CN': '用户名或密码错误', 'en-US': 'Wrong user name or password' },
  'login.badCredentialsRemaining': {
    'zh-CN': '用户名或密码错误，再错{n}次账号将被锁定',
    'en-US': 'Wrong user name or password; {n} more failures will lock the account',
  },
  'login.lockedFor': {
    'zh-CN': '密码错误次数过多，账号已临时锁定，请{n}分钟后再试或联系管理员解锁',
    'en-US':
      'Too many wrong passwords: the account is locked for {n} minutes; try again then, or ask an administrator to unlock it',
  },
  'auth.tooManyRequests': {
    'zh-CN': '尝试过于频繁，请{n}秒后再试',
    'en-US': 'Too many attempts; try again in {n} seconds',
  },
  'login.badClient': { 'zh-CN': '客户端无效', 'en-US': 'Unknown client' },
  'login.badGrant': { 'zh-CN': '不支持的授权类型', 'en-US': 'Unsupported grant type' },
  'auth.required': {
    'zh-CN': '您的登录信息已失效，请重新登录。',
    'en-US': 'Your sign-in has expired; please sign in again.',
  },
  'auth.idle': {
    'zh-CN': '长时间未进行操作，请重新登录。',
    'en-US': 'You have been idle too long; please sign in again.',
  },
  'auth.forbidden': { 'zh-CN': '没有权限执行此操作', 'en-US': 'You are not allowed to do this' },
  'common.ok': { 'zh-CN': '操作成功', 'en-US': 'Done' },
  'common.notFound': { 'zh-CN': '数据不存在', 'en-US': 'Not found' },
  'common.invalid': { 'zh-CN': '输入数据不正确', 'en-US': 'Invalid input' },
  'common.conflict': {
    'zh-CN': '数据已被他人修改，请刷新后重试',
    'en-US': 'Someone else changed this record; reload and try again',
  },
  'common.serverError': { 'zh-CN': '服务器内部错误', 'en-US': 'Internal server error' },
  'backup.key': {
    'zh-CN': '备份密钥不正确',
    'en-US': 'The backup key is not right',
  },
  'backup.postgres': {
    'zh-CN': 'PostgreSQL 数据库请用 pg_dump 备份（见 README）',
    'en-US': 'Back up a PostgreSQL database with pg_dump (see the README)',
  },
  'input.badId': {
    'zh-CN': '路径中的{name}必须是1到{max}之间的整数',
    'en-US': 'The {name} in the path must be a whole number from 1 to {max}',
  },
  'input.nul': {
    'zh-CN': '输入不能包含空字符（{field}）',
    'en-US': 'The input must not contain NUL characters ({field})',
  },
  'input.tooDeep': { 'zh-CN': '输入的嵌套层级超过{max}层', 'en-US': 'The input is nested more than {max} levels deep' },
  'input.badJson': { 'zh-CN': '请求内容不是有效的JSON', 'en-US': 'The request body is not valid JSON' },
  'input.tooLarge': { 'zh-CN': '请求内容过大', 'en-US': 'The request body is too large' },
  'input.badMediaType': { 'zh-CN': '不支持的请求内容类型', 'en-US': 'Unsupported content type' },
  'input.badRequest': { 'zh-CN': '请求格式不正确', 'en-US': 'Malformed request' },
  'input.badUrl': { 'zh-CN': '请求地址编码不正确', 'en-US': 'The request URL is not validly encoded' },
  'input.urlTooLong': { 'zh-CN': '请求地址过长', 'en-US': 'The request URL is too long' },
  'input.headersTooLarge': { 'zh-CN': '请求头过大', 'en-US': 'The request headers are too large' },
  'user.accountTaken': { 'zh-CN': '账号已存在', 'en-US': 'This account already exists' },
  'user.cannotDeleteSelf': {
    'zh-CN': '不能删除当前登录的账号',
    'en-US': 'You cannot delete the account you are signed in with',
  },
  'user.unlocked': { 'zh-CN': '解锁成功', 'en-US': 'Account unlocked' },
  'user.phone.invalid': { 'zh-CN': '请输入正确的手机号码', 'en-US': 'Please enter a valid mobile phone number' },
  'publicData.noLab': { 'zh-CN': '请先选择要下发的实验室', 'en-US': 'Choose the laboratories to distribute to first' },
  'publicData.noRows': { 'zh-CN': '请先勾选数据进行操作', 'en-US': 'Select rows first' },
  'publicData.labRefuses': {
    'zh-CN': '{lab}：{message}，请先处理该实验室的这条数据，本次未复制任何数据',
    'en-US': '{lab}: {message}; deal with that record of the laboratory first (nothing was copied)',
  },
  'processModel.created': { 'zh-CN': '新增成功', 'en-US': 'Model added' },
  'processModel.keyTaken': { 'zh-CN': '流程标识已存在', 'en-US': 'A model with this key already exists' },
  'processModel.saved': { 'zh-CN': '编辑成功', 'en-US': 'Diagram saved' },
  'processModel.deleted': { 'zh-CN': '删除成功', 'en-US': 'Model deleted' },
  'processModel.deployed': { 'zh-CN': '部署成功', 'en-US': 'Model deployed' },
  'processModel.deployFailed': { 'zh-CN': '部署失败', 'en-US': 'Deployment failed' },
  'processModel.noDiagram': {
    'zh-CN': '流程尚未设计，不能部署',
    'en-US': 'Draw the diagram before deploying the model',
  },
  'processModel.xmlMissing': { 'zh-CN': '流程图内容为空', 'en-US': 'The diagram is empty' },
  'processModel.xmlMalformed': {
    'zh-CN': '流程图XML格式不正确：{detail}',
    'en-US': 'The diagram XML is malformed: {detail}',
  },
  'processModel.xmlNoProcess': { 'zh-CN': '流程图中没有流程定义', 'en-US': 'The diagram defines no process' },
  'processModel.synced': { 'zh-CN': '同步成功', 'en-US': 'Models synchronised' },
  'processModel.confirmed': { 'zh-CN': '更新成功', 'en-US': 'Updates taken' },
  'processModel.issued': { 'zh-CN': '下发成功', 'en-US': 'Models distributed' },
  'processModel.imported': { 'zh-CN': '导入成功', 'en-US': 'Models imported' },
  'processModel.badSyncFlag': { 'zh-CN': '同步标识只能是1或2', 'en-US': 'syncFlag must be 1 or 2' },
  'workflow.stepFailed': { 'zh-CN': '流程无法继续：{detail}', 'en-US': 'The process cannot continue: {detail}' },
  'workflow.noDeployment': { 'zh-CN': '流程“{key}”尚未部署', 'en-US': 'Process "{key}" has not been deployed' },
  'workflow.noMessageCatch': {
    'zh-CN': '没有流程实例在等待消息“{name}”',
    'en-US': 'No process instance is waiting for the message "{name}"',
  },
  'workflow.noSignalCatch': {
    'zh-CN': '没有流程实例在等待信号“{name}”',
    'en-US': 'No process instance is waiting for the signal "{name}"',
  },
  'workflow.delivered': { 'zh-CN': '已送达', 'en-US': 'Delivered' },
  'workflow.noSuchAccount': {
    'zh-CN': '本机构没有账号“{account}”',
    'en-US': 'There is no account "{account}" in this organisation',
  },
  'workflow.reassignTarget': { 'zh-CN': '请指定办理人或岗位', 'en-US': 'Name a user or a position' },
  'workflow.unclaimed': { 'zh-CN': '已退回任务池', 'en-US': 'Task released' },
  'workflow.delegated': { 'zh-CN': '已委派', 'en-US': 'Task delegated' },
  'workflow.reassigned': { 'zh-CN': '已转办', 'en-US': 'Task reassigned' },
  'workflow.resolved': { 'zh-CN': '已办理，任务交还委派人', 'en-US': 'Done; the task is back with its owner' },
  'workflow.badResult': { 'zh-CN': '处理结果“{result}”无效', 'en-US': 'Result "{result}" is not valid' },
  'workflow.batchTask': { 'zh-CN': '任务「{task}」：{reason}', 'en-US': 'Task "{task}": {reason}' },
  'workflow.batchCompleted': { 'zh-CN': '已办理 {n} 项任务', 'en-US': '{n} tasks completed' },
  'workflow.taskClosed': { 'zh-CN': '该任务已被处理', 'en-US': 'This task has already been completed' },
  'workflow.taskClaimed': { 'zh-CN': '该任务已被他人签收', 'en-US': 'Someone else has claimed this task' },
  'workflow.instanceNotRunning': { 'zh-CN': '流程实例未在运行', 'en-US': 'The process instance is not running' },
  'workflow.instanceSuspended': {
    'zh-CN': '流程实例已挂起，激活后才能办理任务',
    'en-US': 'The process instance is suspended; its tasks can be completed once it is resumed',
  },
  'workflow.instanceNotSuspended': { 'zh-CN': '流程实例未挂起', 'en-US': 'The process instance is not suspended' },
  'workflow.calledInstance': {
    'zh-CN': '该实例由上级流程调用，请删除上级流程实例',
    'en-US': 'This instance was started by a call activity; delete the calling instance instead',
  },
  'workflow.rollbackTargetRequired': { 'zh-CN': '请选择要退回的节点', 'en-US': 'Choose the task to send it back to' },
  'workflow.rollbackTargetUnknown': {
    'zh-CN': '不能退回到“{target}”：流程尚未经过该节点',
    'en-US': 'Cannot send it back to "{target}": the process has not reached that task',
  },
  'workflow.rollbackNowhere': { 'zh-CN': '没有可以退回的节点', 'en-US': 'There is no earlier task to send it back to' },
  'workflow.sentBack': { 'zh-CN': '任务已退回', 'en-US': 'Task sent back' },
  'workflow.suspended': { 'zh-CN': '流程实例已挂起', 'en-US': 'Process instance suspended' },
  'workflow.resumed': { 'zh-CN': '流程实例已激活', 'en-US': 'Process instance resumed' },
  'workflow.instanceDeleted': { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
  'workflow.alreadyRunning': {
    'zh-CN': '该条码已有运行中的流程实例',
    'en-US': 'A process instance for this barcode is already running',
  },
  'workflow.specimenEnded': {
    'zh-CN': '标本已拒收或已取消，不再启动流程',
    'en-US': 'The specimen was rejected or cancelled; no process is started for it',
  },
  'workflow.specimenNoCategory': {
    'zh-CN': '标本没有带类别的检验目的，无法确定要启动的流程',
    'en-US': 'The specimen has no inspection purpose with a category; cannot tell which process to start',
  },
  'workflow.specimenCategories': {
    'zh-CN': '标本的检验目的分属多个类别（{categories}），无法确定要启动的流程',
    'en-US':
      "The specimen's inspection purposes belong to several categories ({categories}); cannot tell which process to start",
  },
  'workflow.noCategoryModel': {
    'zh-CN': '尚未部署“{category}”类别的流程模型',
    'en-US': 'No process model of category "{category}" has been deployed',
  },
  'workflow.specimenStarted': {
    'zh-CN': '标本 {barcode} 已启动流程“{name}”',
    'en-US': 'Specimen {barcode} started process "{name}"',
  },
  'workflow.started': { 'zh-CN': '流程已启动', 'en-US': 'Process started' },
  'workflow.completed': { 'zh-CN': '任务已完成', 'en-US': 'Task completed' },
  'workflow.claimed': { 'zh-CN': '签收成功', 'en-US': 'Task claimed' },
  'workflow.invalidModel': {
    'zh-CN': '流程模型校验失败：{detail}',
    'en-US': 'The process model is not valid: {detail}',
  },
  'dictionary.nameTaken': { 'zh-CN': '字典名称已存在', 'en-US': 'A dictionary of this name already exists' },
  'image.missing': { 'zh-CN': '请选择一张图片', 'en-US': 'Choose one picture' },
  'image.invalid': {
    'zh-CN': '图片格式不正确，仅支持 PNG、JPEG、GIF、WebP、BMP',
    'en-US': 'Not a picture: PNG, JPEG, GIF, WebP or BMP only',
  },
  'image.tooLarge': { 'zh-CN': '图片不能大于 {kb} KB', 'en-US': 'The picture may be at most {kb} KB' },
  'upload.unreadable': { 'zh-CN': '上传的内容无法读取', 'en-US': 'The upload cannot be read' },
  'dataInput.empty': { 'zh-CN': '没有可导入的数据', 'en-US': 'There is nothing to import' },
  'dataInput.tooMany': { 'zh-CN': '一次最多导入 {n} 行', 'en-US': 'At most {n} rows can be imported at once' },
  'organization.codeTaken': { 'zh-CN': '机构编码已存在', 'en-US': 'This organisation code already exists' },
  'organization.badParent': { 'zh-CN': '上级机构不存在', 'en-US': 'The parent organisation does not exist' },
  'organization.badPlace': {
    'zh-CN': '分实验室须设在中心实验室之下，中心实验室和独立实验室须设在基础机构之下',
    'en-US': 'A sub lab belongs under a main lab; main labs and only-labs belong under the base organisation',
  },
  'organization.oneBase': {
    'zh-CN': '集团只有一个基础机构，不能再新增',
    'en-US': 'The group has one base organisation; another cannot be added',
  },
  'handover.barcodes.required': {
    'zh-CN': '请扫描或输入至少一个标本条码',
    'en-US': 'Scan or type at least one specimen barcode',
  },
  'handover.barcodes.bad': {
    'zh-CN': '条码 {barcode} 格式不正确，只能包含字母、数字和短横线',
    'en-US': 'Barcode {barcode} is not valid: letters, digits and - only',
  },
  'handover.barcodes.duplicate': { 'zh-CN': '条码 {barcode} 重复录入', 'en-US': 'Barcode {barcode} is listed twice' },
  'handover.barcodes.tooMany': {
    'zh-CN': '一张交接单最多 {n} 个标本',
    'en-US': 'A handover holds at most {n} specimens',
  },
  'handover.specimenUnknown': {
    'zh-CN': '条码 {barcode} 没有登记的标本，不能交接',
    'en-US': 'Barcode {barcode} is no registered specimen; it cannot be handed over',
  },
  'handover.specimenState': {
    'zh-CN': '标本 {barcode} 当前状态为「{state}」，不能交接',
    'en-US': 'Specimen {barcode} is {state}; it cannot be handed over',
  },
  'handover.specimenOpen': {
    'zh-CN': '标本 {barcode} 已在未接收的交接单 {handoverNo} 中，一个标本不能同时在两张未接收的交接单里',
    'en-US': 'Specimen {barcode} is already on open handover {handoverNo}; a specimen cannot be on two open handovers',
  },
  'handover.closed': {
    'zh-CN': '交接单 {handoverNo} 已确认接收，不能再修改、删除或再次确认',
    'en-US': 'Handover {handoverNo} has been received; it can no longer be changed, deleted or confirmed again',
  },
  'handover.receiver.required': {
    'zh-CN': '请输入接收人账号和密码',
    'en-US': "Enter the receiver's account and password",
  },
  'handover.receiver.otherLab': {
    'zh-CN': '接收人 {account} 不是本实验室的用户',
    'en-US': 'Receiver {account} is not a user of this laboratory',
  },
  'handover.receiver.notAllowed': {
    'zh-CN': '接收人 {account} 没有接收交接单的权限',
    'en-US': 'Receiver {account} may not receive handovers',
  },
  'handover.receiver.sameAsSender': {
    'zh-CN': '接收人不能是交出人本人（{account}），请由接收方用自己的账号确认',
    'en-US':
      'The receiver cannot be the person who handed over ({account}); the receiving side confirms with its own account',
  },
  'handover.group.mismatch': {
    'zh-CN': '交接单 {handoverNo} 不是交给{group}的',
    'en-US': 'Handover {handoverNo} is not addressed to {group}',
  },
  'handover.barcode.notOnSlip': {
    'zh-CN': '条码 {barcode} 不在交接单上',
    'en-US': 'Barcode {barcode} is not on the handover',
  },
  'handover.barcode.onSlip': {
    'zh-CN': '条码 {barcode} 已在交接单 {handoverNo} 上，不能登记为多出',
    'en-US': 'Barcode {barcode} is on handover {handoverNo}; it cannot be recorded as extra',
  },
  'handover.barcode.twice': {
    'zh-CN': '条码 {barcode} 不能同时登记为缺失和破损',
    'en-US': 'Barcode {barcode} cannot be both missing and damaged',
  },
  'handover.scanned.derived': {
    'zh-CN': '已逐管扫描箱内标本时，缺失和多出的条码由扫描得出，无需另行填写',
    'en-US': 'With the box scanned tube by tube, the missing and extra barcodes come from the scans: leave them empty',
  },
  'handover.extra.oneSlip': {
    'zh-CN': '有多出的标本时请逐单确认接收',
    'en-US': 'With extra specimens, confirm one handover at a time',
  },
  'handover.recordId.required': { 'zh-CN': '请指定交接单', 'en-US': 'Name the handover (recordId)' },
  'handover.recordIds.required': { 'zh-CN': '请先勾选数据进行操作', 'en-US': 'Select the handovers first' },
  'handover.template.unknown': {
    'zh-CN': '打印模板 {templateId} 不存在',
    'en-US': 'There is no print template {templateId}',
  },
  'handover.aim.notFound': { 'zh-CN': '交接单上没有该标本', 'en-US': 'The handover has no such specimen' },
  'handover.combination.notFound': {
    'zh-CN': '交接单上没有检验目的为“{combination}”的标本',
    'en-US': 'The handover has no specimen with the purposes "{combination}"',
  },
  'handover.lastSpecimen': {
    'zh-CN': '交接单至少保留一个标本；整单作废请删除交接单',
    'en-US': 'A handover keeps at least one specimen; delete the handover to cancel it',
  },
  'handover.received': { 'zh-CN': '已确认接收 {n} 张交接单', 'en-US': '{n} handover(s) received' },
  'handover.removed': { 'zh-CN': '已从交接单移除 {n} 个标本', 'en-US': '{n} specimen(s) removed from the handover' },
  'handover.receiverOk': { 'zh-CN': '接收人身份已确认', 'en-US': 'Receiver confirmed' },
  'handover.slip.title': { 'zh-CN': '标本交接单', 'en-US': 'Specimen handover slip' },
  'handover.slip.summaryTitle': { 'zh-CN': '标本交接汇总单', 'en-US': 'Specimen handover summary' },
  'handover.slip.senderSign': { 'zh-CN': '交出人签字', 'en-US': 'Handed over by (signature)' },
  'handover.slip.receiverSign': { 'zh-CN': '接收人签字', 'en-US': 'Received by (signature)' },
  'handover.slip.printedAt': { 'zh-CN': '打印时间', 'en-US': 'Printed at' },
  'handover.slip.total': { 'zh-CN': '共 {n} 个标本', 'en-US': '{n} specimen(s)' },
  'handover.slip.totalSlips': { 'zh-CN': '共 {n} 张交接单，{m} 个标本', 'en-US': '{n} handover(s), {m} specimen(s)' },
  'handover.sheet.handovers': { 'zh-CN': '交接单', 'en-US': 'Handovers' },
  'handover.sheet.specimens': { 'zh-CN': '标本', 'en-US': 'Specimens' },
  'config.key.bad': {
    'zh-CN': '配置项名称不正确（字母开头，只含字母、数字、点、下划线和短横线，最长64位）',
    'en-US': 'The configuration key is not valid (a letter first, then letters, digits, ., _ or -, at most 64)',
  },
  'config.key.unknown': { 'zh-CN': '未知的配置项 {key}', 'en-US': 'Unknown configuration {key}' },
  'config.value.bad': { 'zh-CN': '配置内容不正确：{detail}', 'en-US': 'The configuration is not valid: {detail}' },
  'config.saved': { 'zh-CN': '配置已保存', 'en-US': 'Configuration saved' },
} satisfies Record<string, Record<Locale, string>>;

export type MessageKey = keyof typeof messages;

export function t(
  key: MessageKey,
  locale: Locale = DEFAULT_LOCALE,
  vars: Record<string, string | number> = {},
): string {
  const text = messages[key][locale] ?? messages[key][DEFAULT_LOCALE];
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? `{${name}}`));
}

export function pickLocale(acceptLanguage: string | undefined): Locale {
  return acceptLanguage && /^en\b/i.test(acceptLanguage.trim()) ? 'en-US' : DEFAULT_LOCALE;
}
