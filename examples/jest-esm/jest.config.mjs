// jest.config.mjs
export default {
  testEnvironment: 'node', // not jsdom: the mock needs Node's fetch, Request and Web Crypto
  transform: {},
  testMatch: ['**/test/**/*.test.mjs'],
};
