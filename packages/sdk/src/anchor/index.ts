/** @sikaramp/sdk/anchor: SEP-10/12/24 client. */
export {};
