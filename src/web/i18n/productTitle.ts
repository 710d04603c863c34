/** The product title (spec 1, 9): sidebar, login page and the suffix of every page title. */
export const PRODUCT_TITLE = '实验室信息管理系统';
export const PRODUCT_TITLE_EN = 'Laboratory Information Management System';
