// What the form block needs from the page: the path whose entry holds it (the server finds the
// block there) and where its result is announced (a toast).

export const formContext = {
  urlPath: '/',
  onResult: (_ok: boolean, _message: string) => {},
};
