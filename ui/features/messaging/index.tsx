/** Messaging screens (issue 14); the route table imports these names. */
export { MessagingScreen } from "./MessagingScreen";
export { SettingsScreen } from "./SettingsScreen";
export { TemplatesScreen } from "./TemplatesScreen";
export { InboxScreen } from "./InboxScreen";
