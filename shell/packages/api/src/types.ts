export interface User {
  id: string;
  email: string;
  username: string;
  name: string;
  profilePicture?: string;
  budgetHours?: number;
  timeZone?: string;
}

export interface Category {
  _id: string;
  name: string;
  color?: string;
}

/** An error as the api slice reports it: the HTTP status (or a fetch failure kind) and the server's message. */
export interface ApiErrorBody {
  message?: string;
  error?: string;
  errors?: Array<{ field: string; message: string }>;
}
